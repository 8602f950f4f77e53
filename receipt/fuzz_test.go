package receipt_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/glassworks/glass/receipt"
	"github.com/glassworks/glass/schema"
)

// isFlat mirrors the decoder's choice of wire form, for the properties
// that hold for the canonical form only.
func isFlat(b []byte) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return false
	}
	_, result := m["result"]
	_, status := m["status"]
	_, kind := m["kind"]
	return !result && (status || kind)
}

// FuzzDecode checks, for any input, that Decode does not panic; that what
// it accepts marshals, decodes again to the same model and validates
// against the published schema; and that Decode and the schema agree on
// what is a receipt (for the flat form the decoder is stricter: it also
// checks that revision and currentRevision agree, which JSON Schema cannot
// say).
func FuzzDecode(f *testing.F) {
	for _, b := range canonicalDocs(f) {
		f.Add(b)
	}
	for _, name := range []string{"seed-004-success.json", "seed-004-failure.json"} {
		f.Add(read(f, filepath.Join("testdata/vectors", name)))
	}
	for _, tc := range invalidReceipts(f) {
		f.Add([]byte(tc.Receipt))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := receipt.Decode(b)
		schemaErr := schema.ValidateReceipt(b)
		if err != nil {
			if !errors.Is(err, receipt.ErrInvalid) {
				t.Fatalf("Decode error does not wrap ErrInvalid: %v", err)
			}
			if schemaErr == nil && !isFlat(b) {
				t.Fatalf("the schema accepts what Decode refuses: %v\n%q", err, b)
			}
			return
		}
		if schemaErr != nil {
			t.Fatalf("Decode accepts what the schema refuses: %v\n%q", schemaErr, b)
		}
		out, err := receipt.CanonicalJSON(r)
		if err != nil {
			t.Fatalf("CanonicalJSON of a decoded receipt: %v", err)
		}
		if err := schema.ValidateReceipt(out); err != nil {
			t.Fatalf("the canonical form of a decoded receipt does not validate: %v\n%s", err, out)
		}
		again, err := receipt.Decode(out)
		if err != nil {
			t.Fatalf("Decode(CanonicalJSON(r)): %v\n%s", err, out)
		}
		if !reflect.DeepEqual(again, r) {
			t.Fatalf("the round trip changed the receipt\nfirst: %+v\nagain: %+v\nJSON: %s", r, again, out)
		}
		if s := r.GomegaString(); bytes.ContainsRune([]byte(s), '\n') {
			t.Fatalf("GomegaString spans lines: %q", s)
		}
	})
}

// FuzzDecodeSnapshot is FuzzDecode for snapshots.
func FuzzDecodeSnapshot(f *testing.F) {
	f.Add(read(f, "testdata/runtime/todo.snapshot.json"))
	for _, tc := range invalidSnapshots(f) {
		f.Add([]byte(tc.Snapshot))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := receipt.DecodeSnapshot(b)
		schemaErr := schema.ValidateSnapshot(b)
		if err != nil {
			if !errors.Is(err, receipt.ErrInvalid) {
				t.Fatalf("DecodeSnapshot error does not wrap ErrInvalid: %v", err)
			}
			if schemaErr == nil {
				t.Fatalf("the schema accepts what DecodeSnapshot refuses: %v\n%q", err, b)
			}
			return
		}
		if schemaErr != nil {
			t.Fatalf("DecodeSnapshot accepts what the schema refuses: %v\n%q", schemaErr, b)
		}
		out, err := receipt.CanonicalJSON(s)
		if err != nil {
			t.Fatalf("CanonicalJSON of a decoded snapshot: %v", err)
		}
		again, err := receipt.DecodeSnapshot(out)
		if err != nil {
			t.Fatalf("DecodeSnapshot(CanonicalJSON(s)): %v\n%s", err, out)
		}
		if !reflect.DeepEqual(again, s) {
			t.Fatalf("the round trip changed the snapshot\nfirst: %+v\nagain: %+v\nJSON: %s", s, again, out)
		}
	})
}
