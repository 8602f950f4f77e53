package pagepool

import "testing"

func TestKeepsIsResponsesACacheMayAnswerAgain(t *testing.T) {
	// Redirects and statuses a browser keeps with no header saying so.
	for _, status := range []int{300, 301, 308, 410} {
		if !Keeps("script", status, nil) || !Keeps("document", status, map[string]string{"content-type": "text/html"}) {
			t.Errorf("Keeps(…, %d, …) is false", status)
		}
		if Keeps("document", status, map[string]string{"cache-control": "no-store"}) {
			t.Errorf("Keeps(…, %d, no-store) is true", status)
		}
	}
	if Keeps("document", 302, nil) || Keeps("fetch", 404, nil) {
		t.Error("Keeps is true for a 302 or a 404 without a header that keeps it")
	}
	for _, c := range []struct {
		kind    string
		headers map[string]string
		want    bool
	}{
		{"fetch", map[string]string{"cache-control": "max-age=3600"}, true},
		{"xhr", map[string]string{"expires": "Thu, 01 Dec 2099 16:00:00 GMT"}, true},
		{"document", map[string]string{"last-modified": "Thu, 01 Dec 2020 16:00:00 GMT"}, true},
		{"fetch", map[string]string{"etag": `"v1"`}, true},
		{"other", map[string]string{"cache-control": "no-cache"}, true},
		{"fetch", map[string]string{"cache-control": "No-Store"}, false},
		{"document", map[string]string{"cache-control": "no-store", "last-modified": "Thu, 01 Dec 2020 16:00:00 GMT"}, false},
		{"document", map[string]string{"content-type": "text/html"}, false},
		{"fetch", nil, false},
		{"script", map[string]string{"cache-control": "max-age=3600"}, false},
		{"stylesheet", map[string]string{"expires": "Thu, 01 Dec 2099 16:00:00 GMT"}, false},
		{"font", map[string]string{"etag": `"f"`}, false},
		{"image", map[string]string{"last-modified": "Thu, 01 Dec 2020 16:00:00 GMT"}, false},
	} {
		if got := Keeps(c.kind, 200, c.headers); got != c.want {
			t.Errorf("Keeps(%q, %v) = %v, want %v", c.kind, c.headers, got, c.want)
		}
	}
}
