package batsim

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

type event struct {
	Timestamp float64
	Type      string
	Data      map[string]json.RawMessage
}

// decodeReply reads {"now": number, "events": [{"timestamp", "type",
// "data"}]}. Its errors are in words, never Go type names.
func decodeReply(b []byte) (float64, []event, error) {
	var top map[string]json.RawMessage
	if !json.Valid(b) {
		var v any
		err := json.Unmarshal(b, &v)
		return 0, nil, fmt.Errorf("the reply is not JSON: %s (it begins %s)", jsonError(err), head(b))
	}
	if err := json.Unmarshal(b, &top); err != nil {
		return 0, nil, fmt.Errorf("the reply must be a JSON object, got %s", kindOf(b))
	}
	for k := range top {
		if k != "now" && k != "events" {
			return 0, nil, fmt.Errorf("the reply has a field %q; a message has only now and events", k)
		}
	}
	nowRaw, ok := top["now"]
	if !ok {
		return 0, nil, fmt.Errorf("the reply has no now")
	}
	now, err := number(nowRaw)
	if err != nil {
		return 0, nil, fmt.Errorf("the reply's now: %v", err)
	}
	var list []json.RawMessage
	if raw, ok := top["events"]; !ok {
		return 0, nil, fmt.Errorf("the reply has no events (an empty list is fine)")
	} else if err := json.Unmarshal(raw, &list); err != nil || (len(raw) > 0 && raw[0] != '[') {
		return 0, nil, fmt.Errorf("the reply's events must be a list, got %s", kindOf(raw))
	}
	evs := make([]event, len(list))
	for i, raw := range list {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(raw, &m); err != nil || raw[0] != '{' {
			return 0, nil, fmt.Errorf("event %d of the reply must be an object, got %s", i+1, kindOf(raw))
		}
		ev := &evs[i]
		if err := str(m["type"], &ev.Type); err != nil || ev.Type == "" {
			return 0, nil, fmt.Errorf("event %d of the reply: type must be a non-empty string", i+1)
		}
		ts, ok := m["timestamp"]
		if !ok {
			return 0, nil, fmt.Errorf("event %d of the reply (%s) has no timestamp", i+1, ev.Type)
		}
		if ev.Timestamp, err = number(ts); err != nil {
			return 0, nil, fmt.Errorf("event %d of the reply (%s): timestamp: %v", i+1, ev.Type, err)
		}
		for k := range m {
			if k != "type" && k != "timestamp" && k != "data" {
				return 0, nil, fmt.Errorf("event %d of the reply (%s) has a field %q outside its data", i+1, ev.Type, k)
			}
		}
		if d, ok := m["data"]; ok && string(d) != "null" {
			if err := json.Unmarshal(d, &ev.Data); err != nil || d[0] != '{' {
				return 0, nil, fmt.Errorf("event %d of the reply (%s): data must be an object, got %s", i+1, ev.Type, kindOf(d))
			}
		}
	}
	return now, evs, nil
}

func number(raw json.RawMessage) (float64, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return 0, fmt.Errorf("not JSON: %s", jsonError(err))
	}
	f, ok := v.(float64)
	if !ok || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, fmt.Errorf("must be a number, got %s", kindOf(raw))
	}
	return f, nil
}

func str(raw json.RawMessage, out *string) error {
	if len(raw) == 0 || raw[0] != '"' {
		return fmt.Errorf("must be a string, got %s", kindOf(raw))
	}
	return json.Unmarshal(raw, out)
}

// kindOf names the JSON value raw, for messages.
func kindOf(raw json.RawMessage) string {
	s := strings.TrimSpace(string(raw))
	if s == "" {
		return "nothing"
	}
	switch c := s[0]; {
	case c == '{':
		return "an object"
	case c == '[':
		return "a list"
	case c == '"':
		return "the string " + head([]byte(s))
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	}
	return s
}

// jsonError is a decoding error in words (encoding/json's syntax errors
// already are; its type errors name Go types, which never reach here:
// every value is decoded as a generic value first).
func jsonError(err error) string {
	if se, ok := err.(*json.SyntaxError); ok {
		return fmt.Sprintf("%v at byte %d", se, se.Offset)
	}
	return err.Error()
}

// head is the first bytes of b, quoted.
func head(b []byte) string {
	if len(b) > 80 {
		return strconv.Quote(string(b[:80])) + "…"
	}
	return strconv.Quote(string(b))
}

// appendFloat writes x as encoding/json does: the shortest decimal that
// reads back as x, without an exponent for ordinary magnitudes.
func appendFloat(b []byte, x float64) []byte {
	abs := math.Abs(x)
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		return strconv.AppendFloat(b, x, 'e', -1, 64)
	}
	return strconv.AppendFloat(b, x, 'f', -1, 64)
}

// fmtTime is a time for messages.
func fmtTime(t float64) string { return strconv.FormatFloat(t, 'f', -1, 64) }
