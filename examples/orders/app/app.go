// Package app is the Orders example: a shop's admin page listing orders,
// made agent-ready with the Glass reference runtime. Where the Todo example
// is a list of edits, this page shows the two modes an admin tool needs:
//
//   - a multi-step flow, refund@<order>: validate the order, issue the
//     refund, notify the customer, with a step ledger and resume when a
//     step fails;
//   - a human hand-off, pay@<order>: the card details of a pending order
//     are typed by the user, never passed through the agent.
//
// Every page load starts a fresh session of orders on the server, so specs
// and conformance probes that share one server never see each other's
// writes. Fault switches, as query parameters of the page:
// ?fault=notify-fails-once makes the first customer notification fail.
package app

import (
	"crypto/rand"
	"embed"
	"encoding/hex"
	"encoding/json"
	"html/template"
	"io/fs"
	"net/http"
	"strings"
	"sync"

	"github.com/glassworks/glass/sdk"
)

//go:embed static
var static embed.FS

var page = template.Must(template.ParseFS(static, "static/index.html"))

// TestCard is the card number the demo's payment accepts.
const TestCard = "4242 4242 4242 4242"

// The states of an order.
const (
	Pending  = "pending"
	Paid     = "paid"
	Refunded = "refunded"
)

// Order is one order of the shop.
type Order struct {
	ID       string `json:"id"`
	Customer string `json:"customer"`
	Total    string `json:"total"`
	Status   string `json:"status"`
	Notified bool   `json:"notified"`
}

// Seed returns the six orders every session starts with.
func Seed() []Order {
	return []Order{
		{ID: "o1", Customer: "Ada Lovelace", Total: "€42.00", Status: Paid},
		{ID: "o2", Customer: "Grace Hopper", Total: "€18.50", Status: Paid},
		{ID: "o3", Customer: "Alan Turing", Total: "€99.90", Status: Pending},
		{ID: "o4", Customer: "Katherine Johnson", Total: "€7.25", Status: Refunded, Notified: true},
		{ID: "o5", Customer: "Edsger Dijkstra", Total: "€63.00", Status: Paid},
		{ID: "o6", Customer: "Barbara Liskov", Total: "€120.00", Status: Pending},
	}
}

const maxSessions = 4096

type store struct {
	mu       sync.Mutex
	sessions map[string][]Order
	order    []string
}

func (s *store) create() (string, []Order) {
	var b [12]byte
	_, _ = rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	orders := Seed()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.order) >= maxSessions {
		delete(s.sessions, s.order[0])
		s.order = s.order[1:]
	}
	s.sessions[id] = orders
	s.order = append(s.order, id)
	return id, append([]Order(nil), orders...)
}

// change runs f on the order named by the request's path in the request's
// session and answers with the order, or with f's error status.
func (s *store) change(w http.ResponseWriter, r *http.Request, f func(*Order) int) {
	s.mu.Lock()
	orders, ok := s.sessions[r.Header.Get("X-Orders-Session")]
	status := http.StatusUnauthorized
	var body *Order
	if ok {
		status = http.StatusNotFound
		for i := range orders {
			if orders[i].ID == r.PathValue("id") {
				if status = f(&orders[i]); status == http.StatusOK {
					o := orders[i]
					body = &o
				}
				break
			}
		}
	}
	s.mu.Unlock()
	if body == nil {
		w.WriteHeader(status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(body)
}

// Handler serves the Orders page, its API and the Glass runtime.
func Handler() http.Handler {
	st := &store{sessions: map[string][]Order{}}
	mux := http.NewServeMux()
	mux.Handle("GET "+sdk.Path, sdk.Handler())
	sub, _ := fs.Sub(static, "static")
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(sub)))
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		id, orders := st.create()
		initial, _ := json.Marshal(map[string]any{"session": id, "orders": orders})
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_ = page.Execute(w, map[string]any{"Initial": template.JS(initial)})
	})
	mux.HandleFunc("POST /api/orders/{id}/refund", func(w http.ResponseWriter, r *http.Request) {
		st.change(w, r, func(o *Order) int {
			if o.Status != Paid {
				return http.StatusConflict
			}
			o.Status = Refunded
			return http.StatusOK
		})
	})
	mux.HandleFunc("POST /api/orders/{id}/notify", func(w http.ResponseWriter, r *http.Request) {
		st.change(w, r, func(o *Order) int {
			if o.Status != Refunded {
				return http.StatusConflict
			}
			o.Notified = true
			return http.StatusOK
		})
	})
	mux.HandleFunc("POST /api/orders/{id}/pay", func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Card string `json:"card"`
		}
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1024)).Decode(&body); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		st.change(w, r, func(o *Order) int {
			switch {
			case o.Status != Pending:
				return http.StatusConflict
			case strings.Join(strings.Fields(body.Card), "") != strings.ReplaceAll(TestCard, " ", ""):
				return http.StatusPaymentRequired
			}
			o.Status = Paid
			return http.StatusOK
		})
	})
	return mux
}
