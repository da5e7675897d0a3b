package views

import "regexp"

// seedLink matches the site-relative address of a seed experiment's
// sweep form, the one kind of address a report's text may carry.
var seedLink = regexp.MustCompile(`/experiments/new\?seed=[A-Za-z0-9_-]+/[A-Za-z0-9_.-]+`)

// textPart is a piece of a cell's text: plain, or an address to link.
type textPart struct {
	text string
	link bool
}

// linkParts splits s into plain text and seed-experiment addresses.
func linkParts(s string) []textPart {
	var out []textPart
	last := 0
	for _, m := range seedLink.FindAllStringIndex(s, -1) {
		if m[0] > last {
			out = append(out, textPart{s[last:m[0]], false})
		}
		out = append(out, textPart{s[m[0]:m[1]], true})
		last = m[1]
	}
	if last < len(s) || len(out) == 0 {
		out = append(out, textPart{s[last:], false})
	}
	return out
}
