package views

import (
	"context"
	"io"

	"github.com/a-h/templ"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// markdown renders the notes of runs and experiments: CommonMark with
// GitHub's tables, strikethrough and bare-URL links. The renderer is
// goldmark's default, without html.WithUnsafe: raw HTML in the source
// (a <script>, an <img onerror>) comes out as an HTML comment saying it
// was omitted, text is escaped, and a link or image whose URL is
// dangerous (javascript:, vbscript:, file:, data: other than images) gets
// an empty href. So notes are safe to put in a page whoever wrote them.
var markdown = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.Linkify))

// Markdown is src rendered as safe HTML (see markdown); nothing for empty
// src.
func Markdown(src string) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		if src == "" {
			return nil
		}
		return markdown.Convert([]byte(src), w)
	})
}
