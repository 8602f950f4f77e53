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

// HandoffWith plays the user when the page hands a step over to a person:
// here the Todo page's identity check, done with real input on the page.
// The runtime never simulates the step and asks no confirmation for it.
func ExampleHandoffWith() {
	b, err := glasstest.Launch(glasstest.BrowserConfig{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	srv := httptest.NewServer(app.Handler())
	defer srv.Close()
	theUser := glasstest.HandoffWith(func(h *glasstest.Handoff) glasstest.HandoffOutcome {
		fmt.Println("the page asks:", h.Request.Instructions)
		if err := h.Page().GetByLabel("Code from your authenticator app").Fill(app.IdentityCode); err != nil {
			return glasstest.HandoffFailed
		}
		if err := h.Page().Locator("#identity-verify").Click(); err != nil {
			return glasstest.HandoffFailed
		}
		return glasstest.HandoffCompleted
	})
	page, err := glasstest.OpenPage(b, srv.URL, theUser)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer page.Close()

	r := page.Do("verify-identity", nil)
	fmt.Println(r.Result.OK, r.Result.Expect)
	fmt.Println(len(page.Confirmations()), "confirmations asked")

	// A user who gives up: the call fails at dispatch, and whether the
	// step happened is unknown to the runtime.
	cancelled := page.Do("verify-identity", nil, glasstest.HandoffWith(func(*glasstest.Handoff) glasstest.HandoffOutcome {
		return glasstest.HandoffCancelled
	}))
	fmt.Println(cancelled.Code(), "at", cancelled.FailurePhase())
	// Output:
	// the page asks: Open your authenticator app, type the code into the Identity box and press Verify.
	// true The identity is verified
	// 0 confirmations asked
	// HANDOFF_CANCELLED at dispatch
}
