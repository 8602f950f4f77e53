// Package refusal is the catalogue of refusal probes: each a call derived
// from the page's own snapshot that a conforming runtime must refuse
// before stage 6 — an unknown id, malformed or invalid arguments, a
// denied confirmation, a stale revision, an unavailable action — and how
// to plan it on a page. probe.Refuse makes a planned call between two
// witnesses of the page; the checks judge what it did.
package refusal

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/glassworks/glass/conformance/internal/judge"
	"github.com/glassworks/glass/conformance/internal/params"
	"github.com/glassworks/glass/conformance/internal/probe"
	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/receipt"
)

// The refusal kinds, by name.
const (
	RefUnknownID   = "unknown id"
	RefMalformed   = "malformed JSON"
	RefMissing     = "missing required field"
	RefWrongType   = "wrong type"
	RefOutsideEnum = "value outside the enum"
	RefUndeclared  = "member the params forbid"
	RefNoArgs      = "no arguments for required fields"
	RefNotObject   = "arguments that are not an object"
	RefFraction    = "fraction for an integer"
	RefNull        = "null for a typed parameter"
	// RefBeyondNumber and RefBeyondLength are values past a bound the
	// params declare (minimum or maximum; maxLength or minLength).
	RefBeyondNumber = "number beyond its bound"
	RefBeyondLength = "string beyond its length bound"
	// RefBreaksPattern is a string the pattern a parameter declares does
	// not match, within its length bounds.
	RefBreaksPattern = "string that breaks its pattern"
	RefDenied        = "denied confirmation"
	RefNoChannel     = "no confirmation channel"
	// RefMalformedApproval is a confirmation answered {"approved": "1"}:
	// not the boolean true, so a denial (CONTRACT.md §6.3), but true to a
	// runtime that tests the member for truth or with ==.
	RefMalformedApproval = "malformed approval"
	// RefChannelFails is a confirmation channel that rejects instead of
	// answering: a denial too (CONTRACT.md §6.3), never a thrown call.
	RefChannelFails = "failing confirmation channel"
	RefStale        = "stale expected revision"
	RefUnavailable  = "unavailable action"
	// RefUnavailableElement is an unavailable element action, when the
	// unavailable action the first refusal calls is not one: stage 5
	// checks its target too, and the business reason must still win.
	RefUnavailableElement = "unavailable element action"
	// RefUnavailableFunction and RefUnavailableFlow are the same for a
	// function action and a flow: every kind passes stage 5's gate.
	RefUnavailableFunction = "unavailable function action"
	RefUnavailableFlow     = "unavailable flow"
	RefControlName         = "undeclared id named like a control"
	RefSecretName          = "unknown sensitive value"
	// RefLooksLikePlaceholder is an object like a placeholder that is not
	// one, where a parameter declares type string: "$sensitive" beside
	// another member, or a name that is not a string. It is left as it is
	// (CONTRACT.md §2.3), so validation refuses it; a runtime that takes
	// it for a placeholder fails INVALID_ARGS (the host never gave the
	// name) instead.
	RefLooksLikePlaceholder = "object like a placeholder"
)

// Refusals lists every refusal probe, in lifecycle order.
var Refusals = []probe.Refusal{
	{Kind: RefStale, Code: receipt.CodeStaleRevision, Plan: planStale},
	{Kind: RefUnknownID, Code: receipt.CodeActionNotFound, Plan: probe.PlanUnknown},
	{Kind: RefControlName, Code: receipt.CodeActionNotFound, Plan: planControlName},
	{Kind: RefMalformed, Code: receipt.CodeInvalidArgs, Plan: PlanMalformed},
	{Kind: RefSecretName, Code: receipt.CodeInvalidArgs, Plan: planSecretName},
	{Kind: RefLooksLikePlaceholder, Code: receipt.CodeInvalidParams, Plan: planLooksLikePlaceholder},
	{Kind: RefMissing, Code: receipt.CodeInvalidParams, Plan: planMissing},
	{Kind: RefWrongType, Code: receipt.CodeInvalidParams, Plan: planWrongType},
	{Kind: RefFraction, Code: receipt.CodeInvalidParams, Plan: planFraction},
	{Kind: RefNull, Code: receipt.CodeInvalidParams, Plan: planNull},
	{Kind: RefBeyondNumber, Code: receipt.CodeInvalidParams, Plan: planBeyondNumber},
	{Kind: RefBeyondLength, Code: receipt.CodeInvalidParams, Plan: planBeyondLength},
	{Kind: RefBreaksPattern, Code: receipt.CodeInvalidParams, Plan: planBreaksPattern},
	{Kind: RefNoArgs, Code: receipt.CodeInvalidParams, Plan: planNoArgs},
	{Kind: RefNotObject, Code: receipt.CodeInvalidParams, Plan: planNotObject},
	{Kind: RefOutsideEnum, Code: receipt.CodeInvalidParams, Plan: planOutsideEnum},
	{Kind: RefUndeclared, Code: receipt.CodeInvalidParams, Plan: planUndeclared},
	{Kind: RefDenied, Code: receipt.CodePermissionDenied, Plan: PlanDenied},
	{Kind: RefNoChannel, Code: receipt.CodePermissionDenied, Plan: planNoChannel},
	{Kind: RefMalformedApproval, Code: receipt.CodePermissionDenied, Plan: planMalformedApproval},
	{Kind: RefChannelFails, Code: receipt.CodePermissionDenied, Plan: planChannelFails},
	{Kind: RefUnavailable, Code: receipt.CodeActionUnavailable, Plan: planUnavailable},
	{Kind: RefUnavailableElement, Code: receipt.CodeActionUnavailable, Plan: planUnavailableElement},
	{Kind: RefUnavailableFunction, Code: receipt.CodeActionUnavailable, Plan: planUnavailableFunction},
	{Kind: RefUnavailableFlow, Code: receipt.CodeActionUnavailable, Plan: planUnavailableFlow},
}

// RefusalByKind is the refusal of the given kind (one of the Ref…
// constants).
func RefusalByKind(kind string) probe.Refusal {
	for _, r := range Refusals {
		if r.Kind == kind {
			return r
		}
	}
	panic("conformance: no refusal " + kind)
}

// controlsScript lists the controls a user could operate now — enabled,
// rendered, not inert — with the names a careless fallback would match an
// id against: the text, the aria-label, the id and the name attributes.
const controlsScript = `() => {
  const sel = 'button, a[href], input:not([type=hidden]), select, textarea, summary, [role=button], [role=link], [role=switch], [role=checkbox], [role=tab], [role=menuitem], [onclick]';
  const vw = window.innerWidth, vh = window.innerHeight;
  const out = [];
  for (const el of document.querySelectorAll(sel)) {
    if (out.length >= 200) break;
    if (el.disabled || el.getAttribute("aria-disabled") === "true" || el.closest("[inert], [hidden], [aria-hidden=true]")) continue;
    const cs = getComputedStyle(el);
    if (cs.visibility !== "visible" || cs.display === "none" || !el.getClientRects().length) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const names = [];
    const add = (v) => { v = String(v || "").replace(/\s+/g, " ").trim(); if (v && v.length <= 128 && !names.includes(v)) names.push(v); };
    add(el.textContent); add(el.getAttribute("aria-label")); add(el.id); add(el.getAttribute("name"));
    if (el.matches("input[type=button], input[type=submit]")) add(el.value);
    if (names.length) out.push({ names: names, inView: r.bottom > 0 && r.top < vh && r.right > 0 && r.left < vw, tag: el.tagName.toLowerCase() });
  }
  return JSON.stringify(out);
}`

// maxControls and maxControlIDs bound the control-name probe.
const (
	maxControls   = 6
	maxControlIDs = 16
)

// planControlName calls, as action ids, the names of controls the page
// shows enabled and in sight — their text, aria-label, id and name — on
// one page: a runtime that falls back to searching the DOM for a similar
// control would press one, and the page would change. Several controls,
// and every name of each, so that no single control (a disabled one, one
// that does nothing now) decides the rule.
func planControlName(p *probe.Probe) (*probe.PlannedCall, string) {
	if p.Transport == glasstest.TransportWebMCP {
		return nil, "over WebMCP only a registered tool can be called, so an undeclared id named like a control cannot reach the runtime (probed over the bridge)"
	}
	c := &probe.PlannedCall{Describe: "calls of undeclared ids that name controls on the page"}
	c.IDsFrom = func(pg *probe.Page, before *probe.Witness) ([]string, string, error) {
		v, err := pg.Evaluate(controlsScript, nil)
		if err != nil {
			return nil, "", fmt.Errorf("list the page's controls: %w", err)
		}
		text, _ := v.(string)
		var controls []struct {
			Names  []string `json:"names"`
			InView bool     `json:"inView"`
			Tag    string   `json:"tag"`
		}
		if err := json.Unmarshal([]byte(text), &controls); err != nil {
			return nil, "", fmt.Errorf("list the page's controls: %w", err)
		}
		// Controls in sight first, one of each tag before a second, so the
		// probe spreads over what the page offers.
		slices.SortStableFunc(controls, func(a, b struct {
			Names  []string `json:"names"`
			InView bool     `json:"inView"`
			Tag    string   `json:"tag"`
		}) int {
			switch {
			case a.InView && !b.InView:
				return -1
			case b.InView && !a.InView:
				return 1
			}
			return 0
		})
		var picked [][]string
		tags := map[string]int{}
		for round := 0; round < 2 && len(picked) < maxControls; round++ {
			for i := range controls {
				ct := &controls[i]
				if ct.Names == nil || tags[ct.Tag] > round || len(picked) == maxControls {
					continue
				}
				tags[ct.Tag]++
				picked = append(picked, ct.Names)
				ct.Names = nil
			}
		}
		var ids []string
		for _, names := range picked {
			for _, n := range names {
				if _, declared := before.Snap.Action(n); declared || slices.Contains(ids, n) || len(ids) == maxControlIDs {
					continue
				}
				ids = append(ids, n)
			}
		}
		if len(ids) == 0 {
			return nil, "the page shows no enabled control whose text, aria-label, id or name is not a declared action id", nil
		}
		c.Describe = fmt.Sprintf("calls of %d undeclared ids that name controls on the page (%s)", len(ids), strings.Join(quoteAll(judge.ClipList(ids)), ", "))
		return ids, "", nil
	}
	return c, ""
}

func quoteAll(l []string) []string {
	out := make([]string, len(l))
	for i, s := range l {
		out[i] = strconv.Quote(s)
	}
	return out
}

// NeverGivenSecret is the name of the sensitive value the unknown-secret
// refusal's placeholder asks for, which the host never gives. A name is
// no argument value: a failure may name it (CONTRACT.md §2.3).
const NeverGivenSecret = "glass-probe-never-given"

// planSecretName passes a placeholder for a sensitive value the host never
// gave, in a string parameter of an action.
func planSecretName(p *probe.Probe) (*probe.PlannedCall, string) {
	placeholder := map[string]string{"$sensitive": NeverGivenSecret}
	pc, why := planParam(p, "a string type", func(_ *params.Schema, name string, prop *params.Schema) (any, string, bool) {
		if !prop.HasType("string") || len(prop.Enum) > 0 {
			return nil, "", false
		}
		return placeholder, fmt.Sprintf("a placeholder for a sensitive value the host never gave in %q", name), true
	})
	if pc == nil {
		return nil, why
	}
	// Stage 2 restores every placeholder in the arguments, however deep:
	// the valid arguments with the placeholder nested in an object and in
	// an array, under a member the params do not declare, fail INVALID_ARGS
	// too, before any validation.
	if a, ok := p.Base().Action(pc.ID); ok {
		if base, err := p.ValidArgs(a, ""); err == nil {
			for _, nested := range []any{map[string]any{"deep": placeholder}, []any{placeholder}} {
				m := maps.Clone(base)
				m["glassNested"] = nested
				pc.MoreArgs = append(pc.MoreArgs, m)
			}
			pc.Describe += ", then nested in an object and in an array"
		}
	}
	return pc, ""
}

// planLooksLikePlaceholder passes, in a parameter that must be a string,
// an object with "$sensitive" beside another member, then one whose
// "$sensitive" is not a string: neither is a placeholder, so each fails
// validation (INVALID_PARAMS), not restoration.
func planLooksLikePlaceholder(p *probe.Probe) (*probe.PlannedCall, string) {
	pc, why := planParam(p, "type string only", func(_ *params.Schema, name string, prop *params.Schema) (any, string, bool) {
		if len(prop.Types()) == 0 || !prop.HasType("string") || prop.HasType("object") {
			return nil, "", false
		}
		return map[string]any{"$sensitive": NeverGivenSecret, "glassKeep": 1}, fmt.Sprintf("an object like a placeholder but with a second member in the string parameter %q", name), true
	})
	if pc == nil {
		return nil, why
	}
	args, _ := pc.Args.(map[string]any)
	second := maps.Clone(args)
	second[pc.Field] = map[string]any{"$sensitive": 7}
	pc.MoreArgs = []any{second}
	pc.Describe += `, then {"$sensitive": 7}, whose name is not a string`
	return pc, ""
}

// PlanMalformed calls an available action with arguments that are not
// JSON.
func PlanMalformed(p *probe.Probe) (*probe.PlannedCall, string) {
	c := p.Candidates()
	if len(c) == 0 {
		return nil, "the page declares no available action"
	}
	return &probe.PlannedCall{ID: c[0].ID, Args: `{"unterminated`, Describe: fmt.Sprintf("call of %s with arguments that are not JSON", c[0].ID)}, ""
}

// planParam finds an action with a parameter that pick can make invalid.
func planParam(p *probe.Probe, kind string, pick func(s *params.Schema, name string, prop *params.Schema) (any, string, bool)) (*probe.PlannedCall, string) {
	var why []string
	for _, a := range p.Candidates() {
		s, err := params.ParseSchema(a.Params)
		if err != nil || len(s.Properties) == 0 && len(s.Required) == 0 {
			continue
		}
		base, err := p.ValidArgs(a, "")
		if err != nil {
			why = append(why, fmt.Sprintf("%s: %v", a.ID, err))
			continue
		}
		names := append([]string{}, s.Required...)
		for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
			if !slices.Contains(names, k) {
				names = append(names, k)
			}
		}
		for _, name := range names {
			prop := s.Properties[name]
			if prop == nil {
				prop = &params.Schema{}
			}
			v, desc, ok := pick(s, name, prop)
			if !ok {
				continue
			}
			args := map[string]any{}
			for k, x := range base {
				args[k] = x
			}
			if v == leaveOut {
				delete(args, name)
			} else {
				args[name] = v
			}
			return &probe.PlannedCall{ID: a.ID, Args: args, Field: name, Describe: fmt.Sprintf("call of %s with %s", a.ID, desc)}, ""
		}
	}
	reason := "no available action declares a parameter with " + kind
	if len(why) > 0 {
		reason += " that the probe can build valid arguments for (" + strings.Join(why, "; ") + ")"
	}
	return nil, reason
}

// leaveOut is what a planParam picker returns to leave a field out.
var leaveOut = &struct{ name string }{"leave out"}

func planMissing(p *probe.Probe) (*probe.PlannedCall, string) {
	return planParam(p, "a required field", func(s *params.Schema, name string, _ *params.Schema) (any, string, bool) {
		if !slices.Contains(s.Required, name) {
			return nil, "", false
		}
		return leaveOut, fmt.Sprintf("the required field %q left out", name), true
	})
}

func planWrongType(p *probe.Probe) (*probe.PlannedCall, string) {
	return planParam(p, "a declared type", func(_ *params.Schema, name string, prop *params.Schema) (any, string, bool) {
		v, what, ok := prop.WrongValue()
		if !ok {
			return nil, "", false
		}
		return v, fmt.Sprintf("%s for %q, declared %s", what, name, strings.Join(prop.Types(), " or ")), true
	})
}

// planFraction passes a number that is not an integer, within the
// declared bounds, for an integer parameter: a type error of its own,
// which a check of "is a number" lets through.
//
// Then the same call with an integer within the bounds written as a
// string ("2"): a string is not an integer, but a runtime that coerces
// digit strings (models often quote numbers) lets it through.
func planFraction(p *probe.Probe) (*probe.PlannedCall, string) {
	var digits string
	c, why := planParam(p, "type integer", func(_ *params.Schema, name string, prop *params.Schema) (any, string, bool) {
		if !prop.HasType("integer") || prop.HasType("number") {
			return nil, "", false
		}
		v := 1.5
		if prop.Minimum != nil {
			if math.Abs(*prop.Minimum) >= 1<<52 {
				return nil, "", false // no fraction is that large: v would be an integer
			}
			v = math.Floor(*prop.Minimum) + 1.5
		}
		if prop.Maximum != nil && v > *prop.Maximum {
			return nil, "", false
		}
		if prop.HasType("string") {
			return v, fmt.Sprintf("%v for %q, declared integer", v, name), true
		}
		digits = strconv.FormatFloat(v-0.5, 'f', -1, 64)
		return v, fmt.Sprintf("%v, then the string %q, for %q, declared integer", v, digits, name), true
	})
	if c != nil && digits != "" {
		args := maps.Clone(c.Args.(map[string]any))
		args[c.Field] = digits
		c.MoreArgs = []any{args}
	}
	return c, why
}

// beyondBy is how far past a numeric bound planBeyondNumber goes: far
// enough that the number typed is one a message that quotes it shows
// (failure.bounded), an integer so that it breaks no type.
const beyondBy = 48271

// planBeyondNumber passes a number past the minimum a parameter declares
// (else past a maximum), of its type: a runtime that checks types but not
// bounds lets it through.
func planBeyondNumber(p *probe.Probe) (*probe.PlannedCall, string) {
	pick := func(minimum bool) func(_ *params.Schema, name string, prop *params.Schema) (any, string, bool) {
		return func(_ *params.Schema, name string, prop *params.Schema) (any, string, bool) {
			if len(prop.Types()) != 1 || !prop.HasType("number") && !prop.HasType("integer") || len(prop.Enum) > 0 {
				return nil, "", false
			}
			switch {
			case minimum && prop.Minimum != nil && math.Abs(*prop.Minimum) < 1e12:
				v := math.Floor(*prop.Minimum) - beyondBy
				return v, fmt.Sprintf("%v for %q, below its minimum %v", v, name, *prop.Minimum), true
			case !minimum && prop.Maximum != nil && math.Abs(*prop.Maximum) < 1e12:
				v := math.Ceil(*prop.Maximum) + beyondBy
				return v, fmt.Sprintf("%v for %q, above its maximum %v", v, name, *prop.Maximum), true
			}
			return nil, "", false
		}
	}
	if c, _ := planParam(p, "a minimum", pick(true)); c != nil {
		return c, ""
	}
	return planParam(p, "a minimum or a maximum", pick(false))
}

// planBeyondLength passes a string one character longer than a maxLength
// a parameter declares (else one shorter than a minLength).
func planBeyondLength(p *probe.Probe) (*probe.PlannedCall, string) {
	pick := func(maxLength bool) func(_ *params.Schema, name string, prop *params.Schema) (any, string, bool) {
		return func(_ *params.Schema, name string, prop *params.Schema) (any, string, bool) {
			if len(prop.Types()) != 1 || !prop.HasType("string") || len(prop.Enum) > 0 || prop.Pattern != "" || prop.Format != "" {
				return nil, "", false
			}
			switch {
			case maxLength && prop.MaxLength != nil && *prop.MaxLength >= 0 && *prop.MaxLength < 1000: // not a contract bound: a string the probe builds
				n := int(*prop.MaxLength) + 1
				return strings.Repeat("g", n), fmt.Sprintf("%d characters for %q, over its maxLength %d", n, name, n-1), true
			case !maxLength && prop.MinLength != nil && *prop.MinLength >= 1 && *prop.MinLength <= 1000: // not a contract bound
				// Characters outside the Basic Multilingual Plane: a
				// runtime that counts UTF-16 code units or bytes, not code
				// points, finds the string long enough.
				n := int(*prop.MinLength) - 1
				return strings.Repeat(params.WideChar, n), fmt.Sprintf("%d characters (each outside the Basic Multilingual Plane) for %q, under its minLength %d", n, name, n+1), true
			}
			return nil, "", false
		}
	}
	if c, _ := planParam(p, "a maxLength", pick(true)); c != nil {
		return c, ""
	}
	return planParam(p, "a maxLength or a minLength", pick(false))
}

// planBreaksPattern passes a string that the pattern a parameter declares
// does not match and that fits its length bounds: a runtime that checks
// types and lengths but not patterns lets it through. A pattern Go's
// regexp cannot read (lookaround, backreferences) is left alone: the
// probe could not tell a string it refuses.
func planBreaksPattern(p *probe.Probe) (*probe.PlannedCall, string) {
	return planParam(p, "a pattern", func(_ *params.Schema, name string, prop *params.Schema) (any, string, bool) {
		if len(prop.Types()) != 1 || !prop.HasType("string") || prop.Pattern == "" || len(prop.Enum) > 0 || prop.Format != "" {
			return nil, "", false
		}
		re, err := regexp.Compile(prop.Pattern)
		if err != nil {
			return nil, "", false
		}
		for _, v := range []string{"glass probe ~", "~", "0", "glass probe", "g", "G"} {
			n := len([]rune(v))
			if re.MatchString(v) || prop.MinLength != nil && n < int(*prop.MinLength) || prop.MaxLength != nil && n > int(*prop.MaxLength) {
				continue
			}
			return v, fmt.Sprintf("%q for %q, which its pattern %s does not match", v, name, judge.JSONText(prop.Pattern)), true
		}
		return nil, "", false
	})
}

// planNull passes null for a parameter whose declared types leave null
// out: a value of the wrong type, which a runtime that skips the type
// check of a missing-looking value lets through.
func planNull(p *probe.Probe) (*probe.PlannedCall, string) {
	return planParam(p, "a declared type other than null", func(_ *params.Schema, name string, prop *params.Schema) (any, string, bool) {
		if len(prop.Types()) == 0 || prop.HasType("null") || len(prop.Enum) > 0 {
			return nil, "", false // an enum refuses null anyway: the type check would not show
		}
		return nil, fmt.Sprintf("null for %q, declared %s", name, strings.Join(prop.Types(), " or ")), true
	})
}

// planNoArgs calls an action that requires members with no arguments at
// all: every required member is missing, not only one of several.
func planNoArgs(p *probe.Probe) (*probe.PlannedCall, string) {
	for _, a := range p.Candidates() {
		s, err := params.ParseSchema(a.Params)
		if err != nil || len(s.Required) == 0 {
			continue
		}
		return &probe.PlannedCall{ID: a.ID, Args: map[string]any{}, Field: s.Required[0],
			Describe: fmt.Sprintf("call of %s with no arguments, though it requires %s", a.ID, strings.Join(quoteAll(s.Required), ", "))}, ""
	}
	return nil, "no available action declares a required parameter"
}

// planNotObject sends a JSON array, on one page, to available actions
// whose params say the arguments are an object: one that declares no
// properties first (a runtime may skip validating an action with nothing
// to check), then one that does. Each must fail INVALID_PARAMS at "/".
// Over WebMCP a tool's input is always an object: not probed there.
// NotObjectTexts are the argument texts after [1,2] that the refusal of
// arguments that are not an object sends: JSON, none of it an object.
var NotObjectTexts = []string{"null", "false", "0", `"x"`}

func planNotObject(p *probe.Probe) (*probe.PlannedCall, string) {
	if p.Transport == glasstest.TransportWebMCP {
		return nil, "a WebMCP tool's input is always a JSON object, so arguments that are a JSON array cannot be sent over webmcp"
	}
	var bare, props string
	for _, a := range p.Candidates() {
		s, err := params.ParseSchema(a.Params)
		if err != nil || !s.HasType("object") || len(s.Types()) != 1 {
			continue
		}
		if len(s.Properties) == 0 && bare == "" {
			bare = a.ID
		} else if len(s.Properties) > 0 && props == "" {
			props = a.ID
		}
	}
	var ids []string
	for _, id := range []string{bare, props} {
		if id != "" {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return nil, "no available action declares params of type object"
	}
	// Then JSON that is no object and that JavaScript takes for false (a
	// runtime that writes JSON.parse(text) || {} runs the call with {}),
	// null first (typeof null is "object"), and a string (a runtime that
	// validates only what is an object passes it by).
	more := make([]any, len(NotObjectTexts))
	for i, t := range NotObjectTexts {
		more[i] = json.RawMessage(t)
	}
	return &probe.PlannedCall{ID: ids[0], Args: json.RawMessage("[1,2]"), MoreArgs: more,
		Describe: fmt.Sprintf("calls of %s with the JSON array [1,2] for arguments, then %s, where the params say an object", strings.Join(ids, " and "), strings.Join(NotObjectTexts, ", ")),
		IDsFrom:  func(*probe.Page, *probe.Witness) ([]string, string, error) { return ids, "", nil }}, ""
}

func planOutsideEnum(p *probe.Probe) (*probe.PlannedCall, string) {
	var variant any
	c, why := planParam(p, "an enum", func(_ *params.Schema, name string, prop *params.Schema) (any, string, bool) {
		v, ok := prop.OutsideEnum()
		if !ok {
			return nil, "", false
		}
		variant = caseVariant(prop.Enum)
		if variant != nil {
			return v, fmt.Sprintf("%v, then %q (a member of its enum in other letters), for %q, outside its enum", v, variant, name), true
		}
		return v, fmt.Sprintf("%v for %q, outside its enum", v, name), true
	})
	if c != nil && variant != nil {
		// An enum member in other letter case is outside the enum too
		// (JSON Schema compares exactly): a runtime that folds case lets
		// "HIGH" through where the params say "high".
		args := maps.Clone(c.Args.(map[string]any))
		args[c.Field] = variant
		c.MoreArgs = []any{args}
	}
	return c, why
}

// caseVariant is the first string of enum in upper case (else lower case)
// that is not itself in enum; nil when there is none.
func caseVariant(enum []any) any {
	for _, e := range enum {
		s, ok := e.(string)
		if !ok {
			continue
		}
		for _, v := range []string{strings.ToUpper(s), strings.ToLower(s)} {
			if v != s && !slices.ContainsFunc(enum, func(x any) bool { return x == any(v) }) {
				return v
			}
		}
	}
	return nil
}

// undeclaredMember is the member planUndeclared adds: no page declares it.
// Its name holds a "/" and a "~", which its JSON Pointer escapes
// ("/glass~1undeclared~0member", RFC 6901): a runtime that joins member
// names into a pointer unescaped reports a path to a member that is not
// there.
const undeclaredMember = "glass/undeclared~member"

// planUndeclared adds a member the action's params do not declare, where
// they say additionalProperties false: the schema forbids it.
func planUndeclared(p *probe.Probe) (*probe.PlannedCall, string) {
	for _, a := range p.Candidates() {
		s, err := params.ParseSchema(a.Params)
		if err != nil || string(s.AdditionalProperties) != "false" || s.Properties[undeclaredMember] != nil {
			continue
		}
		args, err := p.ValidArgs(a, "")
		if err != nil {
			continue
		}
		args[undeclaredMember] = "x"
		return &probe.PlannedCall{ID: a.ID, Args: args, Field: undeclaredMember,
			Describe: fmt.Sprintf("call of %s with the member %q, though its params say additionalProperties false", a.ID, undeclaredMember)}, ""
	}
	return nil, "no available action declares params with additionalProperties false"
}

// PlanLongUndeclared is planUndeclared's call with a member name of
// LongMemberChars characters: its JSON Pointer is longer than the bound
// on error.path (failure.bounded), so the runtime must report a shorter
// one, the object's.
func PlanLongUndeclared(p *probe.Probe) *probe.PlannedCall {
	c, _ := planUndeclared(p)
	if c == nil {
		return nil
	}
	args := c.Args.(map[string]any)
	delete(args, undeclaredMember)
	name := undeclaredMember + strings.Repeat("g", LongMemberChars-len(undeclaredMember))
	args[name] = "x"
	c.Field = name
	c.Describe = fmt.Sprintf("call of %s with a member of %d characters, though its params say additionalProperties false", c.ID, LongMemberChars)
	return c
}

// LongMemberChars is the length of PlanLongUndeclared's member name.
const LongMemberChars = receipt.MaxTextChars + 100

// planConfirmable finds an available action that needs confirmation, with
// arguments its schema accepts.
func planConfirmable(p *probe.Probe, opt glasstest.Option, what string) (*probe.PlannedCall, string) {
	found := false
	var why []string
	for _, a := range p.Candidates() {
		if !probe.NeedsConfirmation(a) {
			continue
		}
		found = true
		args, err := p.ValidArgs(a, "")
		if err != nil {
			why = append(why, fmt.Sprintf("%s: %v", a.ID, err))
			continue
		}
		return &probe.PlannedCall{ID: a.ID, Args: args, PageOpts: []glasstest.PageOption{opt}, Describe: fmt.Sprintf("call of %s with %s", a.ID, what)}, ""
	}
	if !found {
		return nil, "the page declares no available action that needs confirmation"
	}
	return nil, "the probe cannot build valid arguments for any action that needs confirmation (" + strings.Join(why, "; ") + ")"
}

// PlanDenied calls an action that needs confirmation, denied.
func PlanDenied(p *probe.Probe) (*probe.PlannedCall, string) {
	return planConfirmable(p, glasstest.Deny(), "the confirmation denied")
}

func planNoChannel(p *probe.Probe) (*probe.PlannedCall, string) {
	return planConfirmable(p, glasstest.NoConfirmationChannel(), "no confirmation channel installed")
}

func planMalformedApproval(p *probe.Probe) (*probe.PlannedCall, string) {
	return planConfirmable(p, glasstest.DenyAs("1"), `the host's answer {"approved": "1"}, which is no approval`)
}

func planChannelFails(p *probe.Probe) (*probe.PlannedCall, string) {
	return planConfirmable(p, glasstest.ConfirmChannelFails(), "a confirmation channel that rejects instead of answering")
}

func planStale(p *probe.Probe) (*probe.PlannedCall, string) {
	var why []string
	for _, a := range p.Candidates() {
		args, err := p.ValidArgs(a, "")
		if err != nil {
			why = append(why, fmt.Sprintf("%s: %v", a.ID, err))
			continue
		}
		return &probe.PlannedCall{
			ID: a.ID, Args: args, PageOpts: []glasstest.PageOption{glasstest.Approve()},
			Describe: fmt.Sprintf("approved call of %s with an expected revision the page is not at", a.ID),
			CallOpts: func(before *probe.Witness) []glasstest.CallOption {
				return []glasstest.CallOption{glasstest.ExpectedRevision(before.Snap.Revision + 1)}
			},
		}, ""
	}
	if len(why) == 0 {
		return nil, "the page declares no available action"
	}
	return nil, "the probe cannot build valid arguments for any available action (" + strings.Join(why, "; ") + ")"
}

func planUnavailable(p *probe.Probe) (*probe.PlannedCall, string) {
	return unavailable(p, func(receipt.ActionInfo) bool { return true })
}

// planUnavailableElement calls an unavailable element action, unless the
// unavailable refusal calls one already.
func planUnavailableElement(p *probe.Probe) (*probe.PlannedCall, string) {
	return unavailableOfKind(p, receipt.KindElement)
}

// planUnavailableFunction calls an unavailable function action, unless
// the unavailable refusal calls one already: a function has no control,
// and a runtime that takes unavailability for a property of a control
// runs it.
func planUnavailableFunction(p *probe.Probe) (*probe.PlannedCall, string) {
	return unavailableOfKind(p, receipt.KindFunction)
}

// planUnavailableFlow calls an unavailable flow, unless the unavailable
// refusal calls one already.
func planUnavailableFlow(p *probe.Probe) (*probe.PlannedCall, string) {
	return unavailableOfKind(p, receipt.KindFlow)
}

func unavailableOfKind(p *probe.Probe, kind receipt.Kind) (*probe.PlannedCall, string) {
	if first, _ := planUnavailable(p); first != nil {
		if a, _ := p.Base().Action(first.ID); a.Kind == kind {
			what := map[receipt.Kind]string{receipt.KindElement: "an element action", receipt.KindFunction: "a function action", receipt.KindFlow: "a flow"}[kind]
			return nil, "the unavailable action the probe calls first is " + what
		}
	}
	c, _ := unavailable(p, func(a receipt.ActionInfo) bool { return a.Kind == kind })
	if c == nil {
		return nil, "the page declares no unavailable " + string(kind) + " action (with arguments the probe can build)"
	}
	return c, ""
}

func unavailable(p *probe.Probe, keep func(receipt.ActionInfo) bool) (*probe.PlannedCall, string) {
	for _, a := range p.Base().Actions.Items {
		if a.Available || a.Kind == receipt.KindHandoff || a.StepOnly || !keep(a) {
			continue
		}
		args, err := p.ValidArgs(a, "")
		if err != nil {
			continue
		}
		return &probe.PlannedCall{ID: a.ID, Args: args, PageOpts: []glasstest.PageOption{glasstest.Approve()},
			Describe: fmt.Sprintf("approved call of %s, which the snapshot declares unavailable", a.ID)}, ""
	}
	return nil, "the page declares no unavailable action (with arguments the probe can build)"
}
