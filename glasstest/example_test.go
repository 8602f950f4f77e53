package glasstest_test

import (
	"fmt"
	"net/http/httptest"
	"slices"

	"github.com/glassworks/glass/examples/todo/app"
	"github.com/glassworks/glass/glasstest"
)

// Do calls a declared action as an agent would and returns its receipt.
// Outside Ginkgo, Launch and OpenPage are the error-returning forms of
// Shared and Open.
func ExamplePage_Do() {
	b, err := glasstest.Launch(glasstest.BrowserConfig{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	srv := httptest.NewServer(app.Handler())
	defer srv.Close()
	page, err := glasstest.OpenPage(b, srv.URL, glasstest.Approve())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer page.Close()

	r := page.Do("remove@t9", nil)
	fmt.Println(r.Result.OK, r.Result.Expect)
	fmt.Println("removed", r.Result.Changed.Records.Removed, "of", r.Result.Changed.Records.Total.From)

	// A folded row call, denied for this call only.
	r = page.Do("remove", map[string]any{"record": "t8"}, glasstest.Deny())
	fmt.Println(r.Result.Action.ID, r.Code(), r.FailurePhase())

	// An unknown action: the receipt lists what is available instead.
	r = page.Do("archive@t1", nil)
	fmt.Println(r.Code(), "; remove@t1 available:", slices.Contains(r.Result.Error.Available, "remove@t1"))
	// Output:
	// true The task is no longer in the list
	// removed [t9] of 12
	// remove@t8 PERMISSION_DENIED policy
	// ACTION_NOT_FOUND ; remove@t1 available: true
}

// ConfirmWith plays the user who answers the page's confirmation requests;
// every request is recorded, and VerifyConfirmations checks that what the
// receipt reports is what the host answered.
func ExampleConfirmWith() {
	b, err := glasstest.Launch(glasstest.BrowserConfig{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	srv := httptest.NewServer(app.Handler())
	defer srv.Close()
	page, err := glasstest.OpenPage(b, srv.URL, glasstest.ConfirmWith(func(req glasstest.ConfirmRequest) bool {
		fmt.Printf("asked: %s? (%s)\n", req.Description, req.Risk)
		return req.Action == "remove@t9"
	}))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer page.Close()

	yes := page.Do("remove@t9", nil)
	fmt.Println("t9:", yes.Result.OK, "ticket issued:", yes.Confirmations[0].Ticket != "")
	no := page.Do("remove@t1", nil)
	fmt.Println("t1:", no.Code(), "at", no.FailurePhase())

	fmt.Println(len(page.Confirmations()), "confirmations asked")
	fmt.Println(page.VerifyConfirmations(yes), page.VerifyConfirmations(no))
	// Output:
	// asked: Delete the task? (dangerous)
	// t9: true ticket issued: true
	// asked: Delete the task? (dangerous)
	// t1: PERMISSION_DENIED at policy
	// 2 confirmations asked
	// <nil> <nil>
}
