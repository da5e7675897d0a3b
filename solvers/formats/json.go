package formats

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"

	"schedlab/errs"
)

// DecodeStrict decodes data, one JSON value, into v: unknown fields,
// trailing data and values of the wrong type are errors, so a typo in a
// field name never passes silently. Every error is errs.Invalid; a wrong
// type names the field's JSON path ("jobs.duration") as the error's Field,
// anything else the Field "file"; messages give the line. what says what
// the file should have been ("a task-graph JSON").
func DecodeStrict(data []byte, v any, what string) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &typ) && typ.Field != "":
			return errs.Invalidf(typ.Field, "line %d: must be %s, got JSON %s", lineAt(data, typ.Offset), TypeName(typ.Type), typ.Value)
		case errors.As(err, &syn):
			return errs.Invalidf("file", "line %d: not %s: malformed JSON: %v", lineAt(data, syn.Offset), what, syn)
		case errors.Is(err, io.EOF):
			return errs.Invalidf("file", "the file is empty: expected %s", what)
		case errors.Is(err, io.ErrUnexpectedEOF):
			return errs.Invalidf("file", "not %s: the JSON ends too early", what)
		}
		return errs.Invalidf("file", "not %s: %s", what, strings.TrimPrefix(err.Error(), "json: "))
	}
	if _, err := dec.Token(); err != io.EOF {
		return errs.Invalidf("file", "line %d: trailing data after the JSON value", lineAt(data, dec.InputOffset()))
	}
	return nil
}

// TypeName says in words what JSON a Go type takes ("a whole number", "a
// list"): errs.JSONType.
func TypeName(t reflect.Type) string { return errs.JSONType(t) }

// lineAt is the 1-based line of a byte offset in data.
func lineAt(data []byte, off int64) int {
	off = min(max(off, 0), int64(len(data)))
	return 1 + bytes.Count(data[:off], []byte("\n"))
}
