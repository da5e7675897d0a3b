package views

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// TestMarkdownKeepsRawHTMLAndScriptLinksOut renders hostile notes and
// checks that no element but markdown's own comes out, and that no link
// or image points at a script, however its scheme is spelled.
func TestMarkdownKeepsRawHTMLAndScriptLinksOut(t *testing.T) {
	src := "# Notes\n\n<script>alert(1)</script>\n\n<img src=x onerror=alert(2)> <iframe src=//evil></iframe>\n\n" +
		"inline <b onclick=alert(3)>b</b> <a href=javascript:alert(4)>raw</a>\n\n" +
		"[a](javascript:alert(5)) [b](JaVaScRiPt:alert(6)) [c](&#106;avascript:alert(7)) [d]( javascript:alert(8))" +
		" <javascript:alert(9)> ![e](javascript:alert(10)) [f](vbscript:x) [g](data:text/html,x)\n\n" +
		"[ref]\n\n[ref]: javascript:alert(11)\n\n| t | u |\n|---|---|\n| 1 | ~~2~~ |\n\nhttps://example.org/x"
	var b bytes.Buffer
	if err := Markdown(src).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(&b)
	if err != nil {
		t.Fatal(err)
	}
	if n := doc.Find("script, iframe, img[onerror], [onclick], b").Length(); n != 0 {
		t.Errorf("%d raw HTML elements came out: %s", n, b.String())
	}
	doc.Find("a, img").Each(func(_ int, s *goquery.Selection) {
		for _, attr := range []string{"href", "src"} {
			v := strings.ToLower(strings.TrimSpace(s.AttrOr(attr, "")))
			if strings.HasPrefix(v, "javascript:") || strings.HasPrefix(v, "vbscript:") || strings.HasPrefix(v, "data:text") {
				t.Errorf("%s=%q came out", attr, v)
			}
		}
	})
	// What markdown means is kept: the heading, the table, strikethrough
	// and the bare https link.
	if doc.Find("h1").Text() != "Notes" || doc.Find("table td").Length() != 2 || doc.Find("del").Text() != "2" ||
		doc.Find(`a[href="https://example.org/x"]`).Length() != 1 {
		t.Errorf("markdown lost: %s", must(doc.Html()))
	}
	var empty bytes.Buffer
	Markdown("").Render(context.Background(), &empty)
	if empty.Len() != 0 {
		t.Errorf("empty notes render %q", empty.String())
	}
}

func must(s string, _ error) string { return s }
