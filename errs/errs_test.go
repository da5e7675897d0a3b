package errs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestKindAndFieldSurviveWrapping(t *testing.T) {
	base := Invalidf("users.csv line 14 column tasks", "tasks must be a positive integer, got %d", -3)
	wrapped := fmt.Errorf("upload: %w", Wrap(Internal, base))
	if KindOf(wrapped) != Invalid {
		t.Errorf("kind %v, want Invalid (Wrap must not override a kind)", KindOf(wrapped))
	}
	if FieldOf(wrapped) != "users.csv line 14 column tasks" {
		t.Errorf("field %q", FieldOf(wrapped))
	}
	if got := base.Error(); got != "users.csv line 14 column tasks: tasks must be a positive integer, got -3" {
		t.Errorf("message %q", got)
	}
}

func TestPlainErrorsGetAKind(t *testing.T) {
	if KindOf(Wrap(NotFound, fmt.Errorf("gone"))) != NotFound {
		t.Error("Wrap of a plain error lost its kind")
	}
	if KindOf(fmt.Errorf("x: %w", context.DeadlineExceeded)) != Canceled {
		t.Error("a deadline is not Canceled")
	}
	if KindOf(fmt.Errorf("plain")) != Other || Wrap(Internal, nil) != nil {
		t.Error("plain error has a kind, or Wrap(nil) is not nil")
	}
}

func TestInFileNamesTheFile(t *testing.T) {
	inner := Invalidf("jobs[2].duration", "must be > 0")
	err := InFile(fmt.Errorf("parse: %w", inner), "w.json")
	if FieldOf(err) != "w.json jobs[2].duration" || KindOf(err) != Invalid {
		t.Errorf("field %q kind %v", FieldOf(err), KindOf(err))
	}
	if got := FieldOf(InFile(Invalidf("file", "not JSON"), "w.json")); got != "w.json" {
		t.Errorf("field %q, want the file name alone", got)
	}
	plain := errors.New("boom")
	if InFile(plain, "w.json") != plain || InFile(inner, "") != inner {
		t.Error("a plain error or a blank name must pass through unchanged")
	}
}

func TestUnknownJSONFieldReadsOnlyThatError(t *testing.T) {
	dec := json.NewDecoder(strings.NewReader(`{"colour":"red"}`))
	dec.DisallowUnknownFields()
	var v struct{ Seed int }
	name, ok := UnknownJSONField(dec.Decode(&v))
	if !ok || name != `"colour"` {
		t.Errorf("got %q, %v; want \"colour\", true", name, ok)
	}
	if _, ok := UnknownJSONField(json.Unmarshal([]byte(`{"Seed":"x"}`), &v)); ok {
		t.Error("a type error was read as an unknown field")
	}
}

func TestWrapLeavesItsArgumentUnchanged(t *testing.T) {
	base := &Error{Kind: Other, Field: "gamma", Err: errors.New("must be > 0")}
	first := Wrap(Invalid, base)
	second := Wrap(Internal, first)
	if *base != (Error{Kind: Other, Field: "gamma", Err: base.Err}) {
		t.Errorf("Wrap changed the error it wrapped: %+v", *base)
	}
	if second != first || first != error(base) {
		t.Error("an error that is already an *Error must come back as it is")
	}
	plain := errors.New("disk on fire")
	once := Wrap(Internal, plain)
	twice := Wrap(NotFound, once)
	if KindOf(once) != Internal || KindOf(twice) != Internal || twice != once {
		t.Errorf("kinds %v, %v: the first Wrap's kind must hold", KindOf(once), KindOf(twice))
	}
	if once.Error() != "disk on fire" {
		t.Errorf("message %q: Wrap must not add text", once.Error())
	}
}
