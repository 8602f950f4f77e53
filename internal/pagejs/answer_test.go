package pagejs

import (
	"encoding/json"
	"testing"
)

func TestConfirmAnswerSendsADenialsApprovedMemberAsGiven(t *testing.T) {
	for _, c := range []struct {
		a    ConfirmAnswer
		want string
	}{
		{ConfirmAnswer{Approved: true, Ticket: "tk_1"}, `{"approved":true,"ticket":"tk_1"}`},
		{ConfirmAnswer{Reason: "denied by the user"}, `{"approved":false,"reason":"denied by the user"}`},
		{ConfirmAnswer{Reason: "no", As: json.RawMessage(`"1"`)}, `{"approved":"1","reason":"no"}`},
		{ConfirmAnswer{As: json.RawMessage(`{"x":[1]}`)}, `{"approved":{"x":[1]}}`},
		// An approval is sent as one whatever As says.
		{ConfirmAnswer{Approved: true, Ticket: "tk_2", As: json.RawMessage(`"1"`)}, `{"approved":true,"ticket":"tk_2"}`},
	} {
		got, err := json.Marshal(c.a)
		if err != nil || string(got) != c.want {
			t.Errorf("json.Marshal(%+v) = %s, %v; want %s", c.a, got, err, c.want)
		}
	}
}
