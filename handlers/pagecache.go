package handlers

import (
	"bytes"
	"container/list"
	"context"
	"crypto/rand"
	"encoding/hex"
	"html"
	"io"
	"sync"

	"github.com/a-h/templ"
	templruntime "github.com/a-h/templ/runtime"
)

// pageCache keeps rendered HTML fragments of finished runs, which never
// change: the report part of a run page and the body of a compare page of
// done runs. A busy lab opens the same large results again and again; a hit
// writes stored bytes instead of decoding megabytes of JSON and rendering
// charts of tens of thousands of bars.
//
// What is cached is a fragment, never a whole page: the layout around it,
// the forms and anything user-specific are rendered per request. The one
// per-request value inside a fragment is the CSP nonce of its <script>
// tags, which the chart components read from the context
// (templ.GetNonce). A fragment is rendered once with a random placeholder
// nonce; serving it puts the request's nonce in each placeholder's place
// (or drops the attribute when the request has none). So a fragment holds
// nothing per request, and a nonce never leaks from one response to another.
//
// The cache is bounded by the bytes it holds (maxBytes) and forgets the
// least recently used first; a fragment larger than maxBytes/4 is served
// but not kept. Concurrent misses of one key render it once: the others
// wait for that render (singleflight), so a burst of clients opening a new
// result costs one render, not one each.
type pageCache struct {
	maxBytes int

	mu       sync.Mutex
	bytes    int
	lru      *list.List // of *fragment, most recent first
	byKey    map[string]*list.Element
	inflight map[string]*flight
}

// fragment is a rendered piece of HTML cut at its nonce placeholders.
type fragment struct {
	key   string
	ids   []string  // the runs it shows, to forget it when one is deleted
	parts []*shared // HTML between the placeholders (shared, so that writing one copies nothing)
	size  int
}

type flight struct {
	done chan struct{}
	frag *fragment
	err  error
}

// defaultPageCacheBytes bounds the rendered fragments kept: the largest
// run page of the KTH fixture (the gossip run, 6 MB) fits several times.
const defaultPageCacheBytes = 64 << 20

func newPageCache(maxBytes int) *pageCache {
	return &pageCache{maxBytes: maxBytes, lru: list.New(), byKey: map[string]*list.Element{}, inflight: map[string]*flight{}}
}

// placeholder is the nonce fragments are rendered with: random per process,
// so that no stored text can match it by chance or design.
var placeholder = func() string {
	var b [16]byte
	rand.Read(b[:])
	return "schedlab-nonce-" + hex.EncodeToString(b[:])
}()

// placeholderAttr is how the chart components write the placeholder.
var placeholderAttr = ` nonce="` + placeholder + `"`

// get returns the fragment under key, rendering comp (with the placeholder
// nonce) on a miss. ids are the runs it shows.
func (c *pageCache) get(ctx context.Context, key string, ids []string, comp templ.Component) (templ.Component, error) {
	c.mu.Lock()
	if e, ok := c.byKey[key]; ok {
		c.lru.MoveToFront(e)
		c.mu.Unlock()
		return e.Value.(*fragment), nil
	}
	if f, ok := c.inflight[key]; ok {
		c.mu.Unlock()
		select {
		case <-f.done:
			return f.frag, f.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	f := &flight{done: make(chan struct{})}
	c.inflight[key] = f
	c.mu.Unlock()

	f.frag, f.err = renderFragment(key, ids, comp)
	c.mu.Lock()
	delete(c.inflight, key)
	if f.err == nil {
		c.add(f.frag)
	}
	c.mu.Unlock()
	close(f.done)
	return f.frag, f.err
}

func renderFragment(key string, ids []string, comp templ.Component) (*fragment, error) {
	var buf bytes.Buffer
	// The fragment outlives the request: render it under a context of its
	// own, so that one client going away does not fail the others waiting.
	if err := comp.Render(templ.WithNonce(context.Background(), placeholder), &buf); err != nil {
		return nil, err
	}
	b := bytes.Clone(buf.Bytes()) // exactly its size: the cache counts len
	var parts []*shared
	for _, p := range bytes.Split(b, []byte(placeholderAttr)) {
		parts = append(parts, newShared(p))
	}
	return &fragment{key: key, ids: ids, parts: parts, size: len(b)}, nil
}

// add keeps f, forgetting the least recently used beyond maxBytes; c.mu held.
func (c *pageCache) add(f *fragment) {
	if f.size > c.maxBytes/4 {
		return
	}
	if e, ok := c.byKey[f.key]; ok {
		c.remove(e)
	}
	c.byKey[f.key] = c.lru.PushFront(f)
	c.bytes += f.size
	for c.bytes > c.maxBytes {
		c.remove(c.lru.Back())
	}
}

func (c *pageCache) remove(e *list.Element) {
	f := c.lru.Remove(e).(*fragment)
	delete(c.byKey, f.key)
	c.bytes -= f.size
}

// forget drops every fragment that shows run id (it was deleted).
func (c *pageCache) forget(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for e := c.lru.Front(); e != nil; {
		next := e.Next()
		for _, x := range e.Value.(*fragment).ids {
			if x == id {
				c.remove(e)
				break
			}
		}
		e = next
	}
}

// Render writes the fragment with the request's nonce in place of the
// placeholder.
func (f *fragment) Render(ctx context.Context, w io.Writer) error {
	attr := ""
	if nonce := templ.GetNonce(ctx); nonce != "" {
		attr = ` nonce="` + html.EscapeString(nonce) + `"`
	}
	pb, shared := sharedTarget(w)
	if shared {
		w = pb // templ's buffer is flushed: write past it, in order
	}
	for i, p := range f.parts {
		if i > 0 && attr != "" {
			if _, err := io.WriteString(w, attr); err != nil {
				return err
			}
		}
		if shared {
			pb.writeShared(p) // by reference: the parts never change
			continue
		}
		if _, err := w.Write(p.b); err != nil {
			return err
		}
	}
	return nil
}

// sharedTarget finds the pageBuf under w: w itself, or the buffer templ
// wraps around the page's writer (flushed first, to keep the order).
func sharedTarget(w io.Writer) (*pageBuf, bool) {
	if tb, ok := w.(*templruntime.Buffer); ok {
		pb, ok := tb.Underlying.(*pageBuf)
		if !ok || tb.Flush() != nil {
			return nil, false
		}
		return pb, true
	}
	pb, ok := w.(*pageBuf)
	return pb, ok
}

// raw returns the fragment under key, bytes that are never a page (a
// report's JSON): produce runs on a miss, once however many ask at once.
func (c *pageCache) raw(ctx context.Context, key string, ids []string, produce func(context.Context) ([]byte, error)) (*shared, error) {
	f, err := c.get(ctx, key, ids, templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		b, err := produce(ctx)
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	}))
	if err != nil {
		return nil, err
	}
	// JSON holds no nonce placeholder (it is random per process): one part,
	// returned as is (joining would copy even one).
	parts := f.(*fragment).parts
	if len(parts) == 1 {
		return parts[0], nil
	}
	b := make([]byte, 0, f.(*fragment).size)
	for i, p := range parts {
		if i > 0 {
			b = append(b, placeholderAttr...)
		}
		b = append(b, p.b...)
	}
	return newShared(b), nil
}
