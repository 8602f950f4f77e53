// Package app is the Todo example: the seed's page with twelve open tasks,
// made agent-ready with the Glass reference runtime.
//
// Every page load starts a fresh session of twelve tasks on the server, so
// specs and conformance probes that share one server never see each
// other's writes.
package app

import (
	"crypto/rand"
	"embed"
	"encoding/hex"
	"encoding/json"
	"html/template"
	"io/fs"
	"net/http"
	"sync"

	"github.com/glassworks/glass/fixtures"
)

//go:embed static
var static embed.FS

var page = template.Must(template.ParseFS(static, "static/index.html"))

// Task is one item of the list.
type Task struct {
	ID       string `json:"id"`
	Title    string `json:"title"`
	Done     bool   `json:"done"`
	Priority string `json:"priority"`
}

// Seed returns the twelve open tasks of the seed's walkthrough; "Weekly
// report" is t9.
func Seed() []Task {
	titles := []string{
		"Buy groceries", "Call the plumber", "Book dentist appointment",
		"Renew passport", "Pay electricity bill", "Plan team offsite",
		"Review pull requests", "Update project roadmap", "Weekly report",
		"Water the plants", "Reply to Anna", "Back up laptop",
	}
	tasks := make([]Task, len(titles))
	for i, t := range titles {
		tasks[i] = Task{ID: "t" + itoa(i+1), Title: t, Priority: "normal"}
	}
	return tasks
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

const maxSessions = 4096

type store struct {
	mu       sync.Mutex
	sessions map[string][]Task
	order    []string
}

func (s *store) create() (string, []Task) {
	var b [12]byte
	_, _ = rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	tasks := Seed()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.order) >= maxSessions {
		delete(s.sessions, s.order[0])
		s.order = s.order[1:]
	}
	s.sessions[id] = tasks
	s.order = append(s.order, id)
	return id, append([]Task(nil), tasks...)
}

func (s *store) update(id string, f func([]Task) ([]Task, int)) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	tasks, ok := s.sessions[id]
	if !ok {
		return http.StatusUnauthorized
	}
	tasks, status := f(tasks)
	s.sessions[id] = tasks
	return status
}

// Handler serves the Todo page, its API and the Glass runtime.
func Handler() http.Handler {
	st := &store{sessions: map[string][]Task{}}
	mux := http.NewServeMux()
	mux.Handle("GET "+fixtures.RuntimePath, fixtures.RuntimeHandler())
	sub, _ := fs.Sub(static, "static")
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(sub)))
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		id, tasks := st.create()
		initial, _ := json.Marshal(map[string]any{"session": id, "tasks": tasks})
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_ = page.Execute(w, map[string]any{"Initial": template.JS(initial)})
	})
	mux.HandleFunc("DELETE /api/tasks/{id}", func(w http.ResponseWriter, r *http.Request) {
		session := r.Header.Get("X-Todo-Session")
		id := r.PathValue("id")
		status := st.update(session, func(tasks []Task) ([]Task, int) {
			for i, t := range tasks {
				if t.ID == id {
					return append(tasks[:i:i], tasks[i+1:]...), http.StatusNoContent
				}
			}
			return tasks, http.StatusNotFound
		})
		w.WriteHeader(status)
	})
	mux.HandleFunc("GET /api/tasks", func(w http.ResponseWriter, r *http.Request) {
		session := r.Header.Get("X-Todo-Session")
		var out []Task
		status := st.update(session, func(tasks []Task) ([]Task, int) {
			out = append([]Task(nil), tasks...)
			return tasks, http.StatusOK
		})
		if status != http.StatusOK {
			w.WriteHeader(status)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(out)
	})
	return mux
}
