package scrub_test

import (
	"fmt"

	"github.com/glassworks/glass/internal/scrub"
)

func ExampleSet_ReplaceString() {
	secrets := scrub.New(`s3cret pw&ü"`)
	for _, text := range []string{
		`{"pw":"s\u0033cret pw\u0026\u00fc\""}`, // JSON, as Go writes it, one more escape
		`/login?pw=s3cret%20pw%26%C3%BC%22`,     // encodeURIComponent
		`<p>s3cret pw&amp;u&#x308;&quot;</p>`,   // HTML, ü decomposed
	} {
		fmt.Println(secrets.ReplaceString(text, "[sensitive]"))
	}
	// Output:
	// {"pw":"[sensitive]"}
	// /login?pw=[sensitive]
	// <p>[sensitive]</p>
}

func ExampleSet_ReplaceIn() {
	secrets := scrub.New("4096", "hunter2")
	request := map[string]any{
		"pin":     4096.0,
		"note":    "the password is hunter%32",
		"hunter2": []any{"a", "b"},
	}
	fmt.Println(secrets.ReplaceIn(request, "[sensitive]"))
	// Output:
	// map[[sensitive]:[a b] note:the password is [sensitive] pin:[sensitive]]
}

func ExampleSet_Contains() {
	secrets := scrub.New("Grüße")
	fmt.Println(secrets.ContainsString("Gru\u0308\u00dfe"), secrets.ContainsString("Grusse"))
	// Output: true false
}
