package handlers

import (
	"net/netip"
	"net/url"
	"strings"

	"schedlab/errs"
)

// checkNotifyHost refuses at once a notify_url whose host is an internal
// address written out (http://127.0.0.1:8080/…, http://[::1]/…) or
// localhost, unless --notify-allow allows it: the user learns it when
// submitting, not when the experiment ends. A host name is not resolved
// here; the notifier's dialer checks the address it resolves to when it
// connects (notify.Guard), which is the check that holds.
func (s *Server) checkNotifyHost(raw string) error {
	if raw == "" {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil // experiments.Validate names a malformed URL
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	a, err := netip.ParseAddr(host)
	if err != nil {
		if host != "localhost" && !strings.HasSuffix(host, ".localhost") {
			return nil
		}
		a = netip.MustParseAddr("127.0.0.1") // RFC 6761: localhost is loopback
	}
	if err := s.notifyGuard.Check(a); err != nil {
		return errs.Invalidf("notify_url", "%s: %v", host, err)
	}
	return nil
}

// notifyAllowedText says in the form where notifications may go.
func (s *Server) notifyAllowedText() string {
	t := "Notes go to public addresses only: loopback, private, link-local and multicast addresses are refused"
	if len(s.notifyGuard.Allow) == 0 {
		return t + "."
	}
	nets := mapped(s.notifyGuard.Allow, netip.Prefix.String)
	return t + ", except in " + strings.Join(nets, ", ") + " (allowed by the operator)."
}
