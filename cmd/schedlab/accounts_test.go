package main

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"schedlab/store"
)

func TestServeRefusesAnExposedAddressWithoutAuth(t *testing.T) {
	cases := []struct {
		addr           string
		auth, insecure bool
		ok             bool
	}{
		{"127.0.0.1:8080", false, false, true},
		{"localhost:8080", false, false, true},
		{"[::1]:8080", false, false, true},
		{"127.0.0.5:0", false, false, true},
		{"0.0.0.0:8080", false, false, false},
		{":8080", false, false, false},
		{"192.0.2.10:8080", false, false, false},
		{"0.0.0.0:8080", true, false, true},
		{"0.0.0.0:8080", false, true, true},
	}
	for _, tc := range cases {
		err := checkExposure(tc.addr, tc.auth, tc.insecure)
		if (err == nil) != tc.ok {
			t.Errorf("addr %s auth=%v insecure=%v: %v, want ok=%v", tc.addr, tc.auth, tc.insecure, err, tc.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "--auth") {
			t.Errorf("refusal does not say how to fix it: %v", err)
		}
	}
	// serve itself refuses before opening anything.
	db := filepath.Join(t.TempDir(), "x.db")
	err := run(context.Background(), []string{"serve", "--addr", "0.0.0.0:0", "--db", db}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "--insecure-no-auth") {
		t.Fatalf("serve on 0.0.0.0 without --auth: %v", err)
	}
}

func TestUserAddAndTokenAdd(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "acc.db")
	var out strings.Builder
	if err := userCmd(ctx, []string{"add", "--db", db, "--admin", "alice"}, strings.NewReader("correct horse battery\n"), &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "admin alice") {
		t.Errorf("user add printed %q", out.String())
	}
	if err := userCmd(ctx, []string{"add", "--db", db, "alice"}, strings.NewReader("another password\n"), io.Discard, io.Discard); err == nil {
		t.Error("a second alice was created")
	}
	if err := userCmd(ctx, []string{"add", "--db", db, "bob"}, strings.NewReader("short\n"), io.Discard, io.Discard); err == nil ||
		!strings.Contains(err.Error(), "password") {
		t.Errorf("a short password: %v", err)
	}
	out.Reset()
	if err := tokenCmd(ctx, []string{"add", "--db", db, "alice"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	tok := strings.TrimSpace(out.String())
	if err := tokenCmd(ctx, []string{"add", "--db", db, "nobody"}, io.Discard, io.Discard); err == nil {
		t.Error("a token for an unknown user")
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	u, err := st.Authenticate(ctx, "alice", "correct horse battery")
	if err != nil || !u.Admin {
		t.Fatalf("alice cannot log in with the password from stdin: %v %v", u, err)
	}
	if u, err := st.TokenUser(ctx, tok); err != nil || u.Name != "alice" {
		t.Errorf("the printed token is not alice's: %v %v", u, err)
	}
}
