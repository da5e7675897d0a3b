// Package errs is schedlab's one error type, after upspin's errors package:
// every error that reaches a user carries a Kind (what went wrong, which the
// HTTP layer maps to a status code) and, where there is one, the input
// field the user can fix. Nothing matches on message text but
// UnknownJSONField, for an error encoding/json gives no type. An Error
// names no operation (upspin's Op): none was ever read or shown.
package errs

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
)

// Kind classifies an error by what the caller can do about it.
type Kind int

const (
	Other           Kind = iota // unclassified: treated as Internal at the edges
	Invalid                     // bad input: malformed file, wrong field, impossible parameter
	NotFound                    // no such workload, run or strategy
	Conflict                    // the request does not fit the current state (e.g. cancel a finished run)
	TooLarge                    // upload, instance or run over its size or memory budget
	Canceled                    // stopped by the user or by a deadline
	Internal                    // a bug or an I/O failure on our side
	Unauthenticated             // the request needs a logged-in user (or an API token) and has none
	Forbidden                   // the user may not do this (another user's run; a cross-origin request)
	NoSpace                     // the disk holding the database is full or nearly: nothing new is stored until space is freed
)

func (k Kind) String() string {
	if k > Other && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "error"
}

var kindNames = [...]string{Invalid: "invalid", NotFound: "not found", Conflict: "conflict", TooLarge: "too large",
	Canceled: "canceled", Internal: "internal", Unauthenticated: "unauthenticated", Forbidden: "forbidden",
	NoSpace: "insufficient storage"}

// Error is an error with a Kind and the input field it concerns. It names
// no operation: nothing read one, and a user reads only the field and
// message.
type Error struct {
	Kind  Kind
	Field string // the input the user can fix: "etc.csv line 3 column 2", "gamma"
	Err   error  // the underlying error; its text is the message a user reads
}

func (e *Error) Error() string {
	msg := ""
	if e.Err != nil {
		msg = e.Err.Error()
	}
	if e.Field != "" && msg != "" {
		return e.Field + ": " + msg
	}
	if e.Field != "" {
		return e.Field
	}
	return cmp.Or(msg, e.Kind.String())
}

func (e *Error) Unwrap() error { return e.Err }

// New returns an error of kind k about field (may be empty) with a formatted message.
func New(k Kind, field, format string, args ...any) error {
	return &Error{Kind: k, Field: field, Err: fmt.Errorf(format, args...)}
}

// Invalidf is New(Invalid, field, ...): the common case of bad user input.
func Invalidf(field, format string, args ...any) error {
	return New(Invalid, field, format, args...)
}

// Wrap gives err the kind k unless an *Error in its chain has one already;
// it never changes err. A nil err stays nil.
func Wrap(k Kind, err error) error {
	var e *Error
	if err == nil || errors.As(err, &e) {
		return err
	}
	return &Error{Kind: k, Err: err}
}

// List is several errors of one request, each about its own field, so that
// a form can show them all at once. Its kind and field are its first's.
type List []error

func (l List) Error() string {
	msgs := make([]string, len(l))
	for i, e := range l {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "; ")
}

// Unwrap lets errors.Is and errors.As see every error of the list.
func (l List) Unwrap() []error { return l }

// Join returns nil for no errors, the error itself for one, a List for
// more.
func Join(list []error) error {
	switch len(list) {
	case 0:
		return nil
	case 1:
		return list[0]
	}
	return List(list)
}

// All returns the errors err holds: a List's, or err alone.
func All(err error) []error {
	if err == nil {
		return nil
	}
	var l List
	if errors.As(err, &l) {
		return l
	}
	return []error{err}
}

// KindOf reports the kind of err: the first *Error in its chain with a kind
// other than Other; context cancellation and deadlines are Canceled.
func KindOf(err error) Kind {
	if err == nil {
		return Other
	}
	if l, ok := err.(List); ok && len(l) > 0 {
		return KindOf(l[0])
	}
	for e := err; e != nil; e = errors.Unwrap(e) {
		if ee, ok := e.(*Error); ok && ee.Kind != Other {
			return ee.Kind
		}
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return Canceled
	}
	return Other
}

// FieldOf reports the field of the first *Error in err's chain that names one.
func FieldOf(err error) string {
	if l, ok := err.(List); ok && len(l) > 0 {
		return FieldOf(l[0])
	}
	for e := err; e != nil; e = errors.Unwrap(e) {
		if ee, ok := e.(*Error); ok && ee.Field != "" {
			return ee.Field
		}
	}
	return ""
}

// Is reports whether err is of kind k, in errors.Is's order (the error first).
func Is(err error, k Kind) bool { return KindOf(err) == k }

// InFile names the uploaded file in an error's field, so the user sees
// which file of an upload is at fault: a field "jobs[2].duration" read from
// "w.json" becomes "w.json jobs[2].duration"; a field "" or "file" becomes
// the file name. Errors without a Kind, and a blank file name, pass through.
func InFile(err error, name string) error {
	var e *Error
	if name == "" || !errors.As(err, &e) {
		return err
	}
	field := name
	if e.Field != "" && e.Field != "file" {
		field += " " + e.Field
	}
	return &Error{Kind: e.Kind, Field: field, Err: e.Err}
}
