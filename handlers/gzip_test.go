package handlers

import (
	"bytes"
	"compress/gzip"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"net/http"
	"regexp"
	"testing"
)

// TestJoinedGzipDecodesToThePage joins per-request and shared pieces of
// every size (empty, one byte, repetitive, random, past a DEFLATE window)
// and checks that a standard gzip reader, which verifies the CRC-32 and
// length, gives back exactly their concatenation.
func TestJoinedGzipDecodesToThePage(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	piece := func() []byte {
		switch rng.IntN(5) {
		case 0:
			return nil
		case 1:
			return []byte{byte(rng.IntN(256))}
		case 2:
			return bytes.Repeat([]byte("<td>0.5</td>"), rng.IntN(20000))
		case 3:
			b := make([]byte, rng.IntN(100000))
			for i := range b {
				b[i] = byte(rng.IntN(256))
			}
			return b
		}
		return []byte("<p>nonce=\"" + string(rune('a'+rng.IntN(26))) + "\"</p>")
	}
	for trial := 0; trial < 60; trial++ {
		var pieces []seg
		var want []byte
		reused := newShared(piece())
		for i := rng.IntN(8); i >= 0; i-- {
			var s seg
			switch rng.IntN(3) {
			case 0:
				s = seg{b: piece()}
			case 1:
				s = seg{sh: newShared(piece())}
			default:
				s = seg{sh: reused} // one shared piece used twice in a page
			}
			pieces = append(pieces, s)
			want = append(want, s.bytes()...)
		}
		parts, n := gzipParts(pieces)
		var body []byte
		for _, p := range parts {
			body = append(body, p...)
		}
		if len(body) != n {
			t.Fatalf("trial %d: length %d, parts add up to %d", trial, n, len(body))
		}
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		zr.Multistream(false)
		got, err := io.ReadAll(zr)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("trial %d: decoded %d bytes, want %d", trial, len(got), len(want))
		}
	}
}

// TestLargePagesAndReportsGoOutGzipped fetches a run page and its report
// as a browser does (Accept-Encoding: gzip) and as a client that takes no
// compression: the gzip body decodes to the same bytes (nonces aside).
func TestLargePagesAndReportsGoOutGzipped(t *testing.T) {
	a := newApp(t, "", 0)
	id := a.upload(t)
	run := a.startRun(t, `{"workload_id":"`+id+`","variant":"online"}`)
	nonces := regexp.MustCompile(`nonce="[^"]*"|'nonce-[^']*'`)
	for _, path := range []string{"/runs/" + run.ID, "/runs/" + run.ID, "/api/runs/" + run.ID + "/report", "/"} {
		get := func(ae string) (*http.Response, []byte) {
			req, _ := http.NewRequest(http.MethodGet, a.URL+path, nil)
			req.Header.Set("Accept-Encoding", ae)
			asPage(req) // one CSRF token for both, so the forms match
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return resp, b
		}
		plainResp, plain := get("identity")
		zResp, z := get("gzip, deflate, br")
		if plainResp.Header.Get("Content-Encoding") != "" {
			t.Errorf("%s: compressed for a client that takes no gzip", path)
		}
		if zResp.Header.Get("Content-Encoding") != "gzip" {
			t.Errorf("%s: not gzipped for a browser (%d bytes)", path, len(plain))
			continue
		}
		if zResp.Header.Get("Content-Length") == "" || len(z) >= len(plain) {
			t.Errorf("%s: gzip body %d bytes against %d plain, Content-Length %q", path, len(z), len(plain), zResp.Header.Get("Content-Length"))
		}
		zr, err := gzip.NewReader(bytes.NewReader(z))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		got, err := io.ReadAll(zr)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if !bytes.Equal(nonces.ReplaceAll(got, nil), nonces.ReplaceAll(plain, nil)) {
			t.Errorf("%s: the gzip body decodes to %d bytes that differ from the %d plain ones", path, len(got), len(plain))
		}
	}
}

func TestCRC32CombineEqualsTheCRCOfTheJoin(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 200; trial++ {
		a := make([]byte, rng.IntN(3000))
		b := make([]byte, rng.IntN(3000))
		for i := range a {
			a[i] = byte(rng.IntN(256))
		}
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		want := crc32.ChecksumIEEE(append(append([]byte(nil), a...), b...))
		if got := crc32Combine(crc32.ChecksumIEEE(a), crc32.ChecksumIEEE(b), int64(len(b))); got != want {
			t.Fatalf("lengths %d+%d: combined %08x, want %08x", len(a), len(b), got, want)
		}
	}
}
