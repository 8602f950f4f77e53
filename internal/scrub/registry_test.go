package scrub

import (
	"slices"
	"sync"
	"testing"
)

func TestRegistryGrowsAndRebuildsItsSetOnlyWhenItChanges(t *testing.T) {
	var r Registry
	if r.Set().Len() != 0 || len(r.Values()) != 0 {
		t.Fatal("a zero Registry is not empty")
	}
	r.Add("s3cret-1", "", "s3cret-1")
	first := r.Set()
	if got := r.Values(); !slices.Equal(got, []string{"s3cret-1"}) {
		t.Fatalf("Values() = %q, want the one value", got)
	}
	if !first.Contains([]byte(`{"pw":"s3cret\u002d1"}`)) {
		t.Fatal("the set does not find the value JSON-escaped")
	}
	r.Add("s3cret-1")
	if r.Set() != first {
		t.Fatal("adding a value already there rebuilt the set")
	}
	var wg sync.WaitGroup
	for _, v := range []string{"a-one", "b-two", "c-three"} {
		wg.Add(1)
		go func() { defer wg.Done(); r.Add(v); _ = r.Set() }()
	}
	wg.Wait()
	if s := r.Set(); s == first || s.Len() != 4 || !s.Contains([]byte("xx c%2Dthree")) {
		t.Fatalf("after three more values the set holds %d, want 4 and a new set", s.Len())
	}
}
