package charts

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"
)

// testSink is where render's charts say their data is.
const testSink = "/api/charts/test"

// render renders c to a buffer (its charts' options to a Sink) and parses it.
func render(t *testing.T, c templ.Component) (*goquery.Document, string) {
	t.Helper()
	doc, raw, _ := renderSink(t, c)
	return doc, raw
}

// renderSink is render that also returns the Sink.
func renderSink(t *testing.T, c templ.Component) (*goquery.Document, string, *Sink) {
	t.Helper()
	var b bytes.Buffer
	ctx, sink := WithSink(context.Background(), testSink)
	if err := c.Render(ctx, &b); err != nil {
		t.Fatalf("render: %v", err)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(b.String()))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return doc, b.String(), sink
}

// chartDiv returns the one chart element of doc.
func chartDiv(t *testing.T, doc *goquery.Document) *goquery.Selection {
	t.Helper()
	s := doc.Find(`[data-testid="chart"]`)
	if s.Length() != 1 {
		t.Fatalf("want 1 chart element, got %d", s.Length())
	}
	return s
}

// assertChart checks the element's kind, title, id shape and height.
func assertChart(t *testing.T, doc *goquery.Document, kind, title string) *goquery.Selection {
	t.Helper()
	div := chartDiv(t, doc)
	if got := div.AttrOr("data-kind", ""); got != kind {
		t.Errorf("data-kind = %q, want %q", got, kind)
	}
	if got := div.AttrOr("data-title", "<missing>"); got != title {
		t.Errorf("data-title = %q, want %q", got, title)
	}
	if !div.HasClass("chart") {
		t.Errorf("chart element lacks class chart")
	}
	if div.AttrOr("data-chart-src", "") != testSink || div.AttrOr("data-chart-index", "") != "0" {
		t.Errorf("data-chart-src %q #%q, want %s #0", div.AttrOr("data-chart-src", ""), div.AttrOr("data-chart-index", ""), testSink)
	}
	if !strings.HasPrefix(div.AttrOr("style", ""), "height:") {
		t.Errorf("style = %q, want a height", div.AttrOr("style", ""))
	}
	if n := doc.Find("script").Length(); n != 0 {
		t.Errorf("%d scripts: a chart's data is fetched, never inline", n)
	}
	return div
}

// option parses an option JSON, failing on duplicate keys (a spliced key
// that go-echarts also wrote would silently lose one of them).
func option(t *testing.T) func(b []byte, err error) map[string]any {
	t.Helper()
	return func(b []byte, err error) map[string]any {
		t.Helper()
		return parseOption(t, b, err)
	}
}

func parseOption(t *testing.T, b []byte, err error) map[string]any {
	t.Helper()
	if err != nil {
		t.Fatalf("option: %v", err)
	}
	if err := noDuplicateKeys(b); err != nil {
		t.Fatalf("option JSON: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("option is not JSON: %v", err)
	}
	return m
}

// noDuplicateKeys walks the JSON and reports an object with a repeated key.
func noDuplicateKeys(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	var walk func(path string) error
	walk = func(path string) error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'):
			seen := map[string]bool{}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				key := k.(string)
				if seen[key] {
					return fmt.Errorf("duplicate key %s.%s", path, key)
				}
				seen[key] = true
				if err := walk(path + "." + key); err != nil {
					return err
				}
			}
			_, err = dec.Token()
			return err
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				if err := walk(fmt.Sprintf("%s[%d]", path, i)); err != nil {
					return err
				}
			}
			_, err = dec.Token()
			return err
		}
		return nil
	}
	return walk("$")
}

// get walks m by keys and indexes ("series", 0, "data").
func get(t *testing.T, v any, path ...any) any {
	t.Helper()
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("at %q: not an object: %T", k, v)
			}
			v = m[k]
		case int:
			a, ok := v.([]any)
			if !ok || k >= len(a) {
				t.Fatalf("at [%d]: not an array that long: %T %v", k, v, v)
			}
			v = a[k]
		}
	}
	return v
}

func arr(t *testing.T, v any, path ...any) []any {
	t.Helper()
	a, ok := get(t, v, path...).([]any)
	if !ok {
		t.Fatalf("%v: not an array", path)
	}
	return a
}

func str(t *testing.T, v any, path ...any) string {
	t.Helper()
	s, _ := get(t, v, path...).(string)
	return s
}

func strs(t *testing.T, v any, path ...any) []string {
	t.Helper()
	var out []string
	for _, x := range arr(t, v, path...) {
		out = append(out, x.(string))
	}
	return out
}
