package receipt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// ErrInvalid is wrapped by every decoding error, so callers can tell a
// receipt of the wrong shape from other failures with errors.Is.
var ErrInvalid = errors.New("invalid receipt")

// Decode parses one receipt. It rejects JSON that is not a receipt with an
// error naming the offending path, and keeps unknown fields in Extra.
func Decode(b []byte) (*Receipt, error) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil, fmt.Errorf("%w: empty input", ErrInvalid)
	}
	if b[0] != '{' {
		return nil, fmt.Errorf("%w: $: want a JSON object, got %s", ErrInvalid, excerpt(b))
	}
	var r Receipt
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%w: %s", ErrInvalid, describeJSONError(err))
	}
	if err := r.check(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return &r, nil
}

func (r *Receipt) check() error {
	res := r.Result
	if res.OK && res.Error != nil {
		return errors.New("$.result.error: present on a receipt with ok true")
	}
	if !res.OK && res.Error == nil {
		return errors.New("$.result.error: missing on a receipt with ok false")
	}
	if res.Error != nil && res.Error.Code == CodeNone {
		return errors.New("$.result.error.code: missing")
	}
	return nil
}

func describeJSONError(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		path := "$"
		if te.Field != "" {
			path += "." + te.Field
		}
		return fmt.Sprintf("%s: want %s, got JSON %s", path, te.Type, te.Value)
	}
	return err.Error()
}

func excerpt(b []byte) string {
	const max = 40
	if len(b) > max {
		return fmt.Sprintf("%q…", b[:max])
	}
	return fmt.Sprintf("%q", b)
}
