// Package app is the Todo example: the seed's page with twelve open tasks,
// made agent-ready with the Glass reference runtime.
//
// Every page load starts a fresh session of tasks on the server, so specs
// and conformance probes that share one server never see each other's
// writes. The page shows each execution mode of the runtime: element
// actions (add, toggle, filter, delete), a flow (edit through a dialog), a
// function action (export), and a human hand-off (the identity check that
// export requires).
//
// Knobs for demos and tests, as query parameters of the page:
// ?tasks=N starts with N tasks (1 to 200, default 12);
// ?fault=delete-throws and ?fault=delete-stale break the delete path,
// ?fault=save-fails-once the first save of the edit dialog,
// ?fault=clear-fails-once the first delete of clear-done, ?fault=rows-hidden
// hides every row, ?fault=clock shows a ticking clock.
package app

import (
	"crypto/rand"
	"embed"
	"encoding/hex"
	"encoding/json"
	"html/template"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/glassworks/glass/sdk"
)

//go:embed static
var static embed.FS

var page = template.Must(template.ParseFS(static, "static/index.html"))

// IdentityCode is the code the demo's "authenticator app" shows: the user
// types it during the identity hand-off.
const IdentityCode = "246810"

// Priorities are the priorities a task can have.
var Priorities = []string{"low", "normal", "high"}

// Task is one item of the list.
type Task struct {
	ID       string `json:"id"`
	Title    string `json:"title"`
	Done     bool   `json:"done"`
	Priority string `json:"priority"`
}

var seedTitles = []string{
	"Buy groceries", "Call the plumber", "Book dentist appointment",
	"Renew passport", "Pay electricity bill", "Plan team offsite",
	"Review pull requests", "Update project roadmap", "Weekly report",
	"Water the plants", "Reply to Anna", "Back up laptop",
}

// Seed returns the twelve open tasks of the seed's walkthrough; "Weekly
// report" is t9.
func Seed() []Task { return seed(len(seedTitles)) }

func seed(n int) []Task {
	tasks := make([]Task, n)
	for i := range tasks {
		title := "Task " + strconv.Itoa(i+1)
		if i < len(seedTitles) {
			title = seedTitles[i]
		}
		tasks[i] = Task{ID: "t" + strconv.Itoa(i+1), Title: title, Priority: "normal"}
	}
	return tasks
}

const (
	maxSessions = 4096
	maxTasks    = 200
	maxTitle    = 200
)

type session struct {
	tasks    []Task
	next     int
	verified bool
	exports  int
}

type store struct {
	mu       sync.Mutex
	sessions map[string]*session
	order    []string
}

func (s *store) create(n int) (string, []Task) {
	var b [12]byte
	_, _ = rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	tasks := seed(n)
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.order) >= maxSessions {
		delete(s.sessions, s.order[0])
		s.order = s.order[1:]
	}
	s.sessions[id] = &session{tasks: tasks, next: n + 1}
	s.order = append(s.order, id)
	return id, append([]Task(nil), tasks...)
}

// with runs f on the session of r, or answers 401 when there is none.
func (s *store) with(w http.ResponseWriter, r *http.Request, f func(*session) (int, any)) {
	s.mu.Lock()
	sess, ok := s.sessions[r.Header.Get("X-Todo-Session")]
	var status int
	var body any
	if ok {
		status, body = f(sess)
	} else {
		status = http.StatusUnauthorized
	}
	s.mu.Unlock()
	if body == nil {
		w.WriteHeader(status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}

func validPriority(p string) bool {
	for _, q := range Priorities {
		if p == q {
			return true
		}
	}
	return false
}

// taskChange is the body of POST and PATCH /api/tasks: every field is
// optional on PATCH.
type taskChange struct {
	Title    *string `json:"title"`
	Priority *string `json:"priority"`
	Done     *bool   `json:"done"`
}

func (c taskChange) valid() bool {
	if c.Title != nil && (strings.TrimSpace(*c.Title) == "" || len(*c.Title) > maxTitle) {
		return false
	}
	return c.Priority == nil || validPriority(*c.Priority)
}

func decodeChange(w http.ResponseWriter, r *http.Request) (taskChange, bool) {
	var c taskChange
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4096)).Decode(&c); err != nil {
		return c, false
	}
	return c, c.valid()
}

// Handler serves the Todo page, its API and the Glass runtime.
func Handler() http.Handler {
	st := &store{sessions: map[string]*session{}}
	mux := http.NewServeMux()
	mux.Handle("GET "+sdk.Path, sdk.Handler())
	sub, _ := fs.Sub(static, "static")
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(sub)))
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		n := len(seedTitles)
		if v, err := strconv.Atoi(r.URL.Query().Get("tasks")); err == nil && v >= 1 && v <= maxTasks {
			n = v
		}
		id, tasks := st.create(n)
		initial, _ := json.Marshal(map[string]any{"session": id, "tasks": tasks})
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_ = page.Execute(w, map[string]any{"Initial": template.JS(initial)})
	})
	mux.HandleFunc("GET /api/tasks", func(w http.ResponseWriter, r *http.Request) {
		st.with(w, r, func(s *session) (int, any) {
			return http.StatusOK, append([]Task{}, s.tasks...)
		})
	})
	mux.HandleFunc("POST /api/tasks", func(w http.ResponseWriter, r *http.Request) {
		c, ok := decodeChange(w, r)
		if !ok || c.Title == nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		st.with(w, r, func(s *session) (int, any) {
			if len(s.tasks) >= maxTasks {
				return http.StatusConflict, nil
			}
			t := Task{ID: "t" + strconv.Itoa(s.next), Title: strings.TrimSpace(*c.Title), Priority: "normal"}
			if c.Priority != nil {
				t.Priority = *c.Priority
			}
			s.next++
			s.tasks = append(s.tasks, t)
			return http.StatusCreated, t
		})
	})
	mux.HandleFunc("PATCH /api/tasks/{id}", func(w http.ResponseWriter, r *http.Request) {
		c, ok := decodeChange(w, r)
		if !ok {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		id := r.PathValue("id")
		st.with(w, r, func(s *session) (int, any) {
			for i := range s.tasks {
				t := &s.tasks[i]
				if t.ID != id {
					continue
				}
				if c.Title != nil {
					t.Title = strings.TrimSpace(*c.Title)
				}
				if c.Priority != nil {
					t.Priority = *c.Priority
				}
				if c.Done != nil {
					t.Done = *c.Done
				}
				return http.StatusOK, *t
			}
			return http.StatusNotFound, nil
		})
	})
	mux.HandleFunc("DELETE /api/tasks/{id}", func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		st.with(w, r, func(s *session) (int, any) {
			for i, t := range s.tasks {
				if t.ID == id {
					s.tasks = append(s.tasks[:i:i], s.tasks[i+1:]...)
					return http.StatusNoContent, nil
				}
			}
			return http.StatusNotFound, nil
		})
	})
	mux.HandleFunc("POST /api/identity", func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Code string `json:"code"`
		}
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1024)).Decode(&body); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		st.with(w, r, func(s *session) (int, any) {
			if strings.TrimSpace(body.Code) != IdentityCode {
				return http.StatusForbidden, nil
			}
			s.verified = true
			return http.StatusNoContent, nil
		})
	})
	// Sync saves the list again; the session already holds it.
	mux.HandleFunc("POST /api/sync", func(w http.ResponseWriter, r *http.Request) {
		st.with(w, r, func(*session) (int, any) { return http.StatusNoContent, nil })
	})
	// Export is authorised by the server, not by the page's availability
	// check: the identity check is a business prerequisite on both sides.
	mux.HandleFunc("POST /api/export", func(w http.ResponseWriter, r *http.Request) {
		st.with(w, r, func(s *session) (int, any) {
			if !s.verified {
				return http.StatusForbidden, nil
			}
			s.exports++
			return http.StatusOK, map[string]any{"reference": "exp-" + strconv.Itoa(s.exports), "count": len(s.tasks)}
		})
	})
	return mux
}
