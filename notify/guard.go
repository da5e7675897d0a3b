package notify

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"syscall"
)

// internalNets are the networks a notification never reaches unless the
// operator allows them (Guard.Allow, schedlab serve --notify-allow), each
// with the word an error uses. Sources: RFC 6890 (special-purpose address
// registries) and the IANA registries it founded; Go's netip predicates
// (IsLoopback, IsPrivate, IsLinkLocalUnicast, IsUnspecified, IsMulticast)
// cover the named five, the rest are special-purpose ranges that are not
// the public internet either.
var internalNets = []struct {
	prefix netip.Prefix
	kind   string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "unspecified (\"this network\")"}, // 0.0.0.0 reaches this host on Linux
	{netip.MustParsePrefix("127.0.0.0/8"), "loopback"},
	{netip.MustParsePrefix("10.0.0.0/8"), "private"},
	{netip.MustParsePrefix("172.16.0.0/12"), "private"},
	{netip.MustParsePrefix("192.168.0.0/16"), "private"},
	{netip.MustParsePrefix("100.64.0.0/10"), "shared (carrier-grade NAT)"},
	{netip.MustParsePrefix("169.254.0.0/16"), "link-local"}, // cloud metadata services live here
	{netip.MustParsePrefix("192.0.0.0/24"), "special-purpose"},
	{netip.MustParsePrefix("198.18.0.0/15"), "benchmarking"},
	{netip.MustParsePrefix("224.0.0.0/4"), "multicast"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved"}, // 255.255.255.255 (broadcast) too
	{netip.MustParsePrefix("::/128"), "unspecified"},
	{netip.MustParsePrefix("::1/128"), "loopback"},
	{netip.MustParsePrefix("fc00::/7"), "private (unique local)"},
	{netip.MustParsePrefix("fe80::/10"), "link-local"},
	{netip.MustParsePrefix("ff00::/8"), "multicast"},
}

// ErrInternal is the error of a connection refused because its address
// is internal; errors.Is finds it in the Poster's error.
var ErrInternal = errors.New("internal address")

// Guard decides which addresses a notification may connect to: every
// public address, and an internal one (loopback, private, link-local,
// unspecified, multicast, other special-purpose ranges) only inside a
// network of Allow. It is applied to the address a connection is about to
// be made to, after name resolution, so a DNS name that answers an
// internal address, a name whose answer changes between two lookups
// (DNS rebinding) and a redirect to an internal URL are refused as the
// literal address is.
type Guard struct {
	Allow []netip.Prefix // internal networks the operator allows (--notify-allow)
}

// Check returns nil when a may be connected to, else an error (wrapping
// ErrInternal) that names the address and what kind it is.
func (g Guard) Check(a netip.Addr) error {
	// ::ffff:127.0.0.1 is 127.0.0.1; a zone (fe80::1%eth0) would make
	// every prefix miss (netip.Prefix.Contains), so it is dropped here.
	a = a.Unmap().WithZone("")
	if !a.IsValid() {
		return fmt.Errorf("%w: no address", ErrInternal)
	}
	for _, p := range g.Allow {
		if p.Contains(a) {
			return nil
		}
	}
	if kind := internalKind(a); kind != "" {
		return fmt.Errorf("%w: %s is a %s address; notifications go to public addresses only, unless the server is started with --notify-allow naming its network", ErrInternal, a, kind)
	}
	return nil
}

// internalKind is the kind of an internal address, "" for a public one.
// An IPv6 address that embeds an IPv4 one (NAT64 64:ff9b::/96, 6to4
// 2002::/16) is judged by the IPv4 address it reaches.
func internalKind(a netip.Addr) string {
	for _, n := range internalNets {
		if n.prefix.Contains(a) {
			return n.kind
		}
	}
	if a.Is6() {
		b := a.As16()
		if nat64.Contains(a) {
			if k := internalKind(netip.AddrFrom4([4]byte(b[12:16]))); k != "" {
				return k + " (through NAT64)"
			}
		}
		if sixToFour.Contains(a) {
			if k := internalKind(netip.AddrFrom4([4]byte(b[2:6]))); k != "" {
				return k + " (through 6to4)"
			}
		}
	}
	return ""
}

var (
	nat64     = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour = netip.MustParsePrefix("2002::/16")
)

// ParseAllow reads the values of --notify-allow: CIDR networks
// ("10.1.0.0/16", "fd00::/8"), or single addresses, separated by commas;
// the flag may be given several times.
func ParseAllow(values []string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, v := range values {
		for _, s := range strings.Split(v, ",") {
			s = strings.TrimSpace(s)
			if s == "" {
				continue
			}
			if p, err := netip.ParsePrefix(s); err == nil {
				out = append(out, p.Masked())
				continue
			}
			a, err := netip.ParseAddr(s)
			if err != nil {
				return nil, fmt.Errorf("%q is not a network in CIDR notation (like 10.1.0.0/16 or fd00::/8) nor an address", s)
			}
			out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
		}
	}
	return out, nil
}

// Resolver looks a host name up (net.DefaultResolver by default; tests
// give one that answers what they need).
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// DialFunc makes a connection to an address already checked ("ip:port").
type DialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

// dialContext is the DialContext of the Poster's transport: it resolves
// the host, checks every address with g, and connects only to an allowed
// one, by its IP, so the address checked is the address connected to. The
// default dial checks it once more in its Control (at the socket, after
// any rewriting by the system), so no path reaches an internal address.
func (g Guard) dialContext(r Resolver, dial DialFunc) DialFunc {
	r = cmp.Or[Resolver](r, net.DefaultResolver)
	if dial == nil {
		d := &net.Dialer{Control: func(network, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return fmt.Errorf("%w: cannot read %q", ErrInternal, address)
			}
			return g.Check(ap.Addr())
		}}
		dial = d.DialContext
	}
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		var addrs []netip.Addr
		if a, err := netip.ParseAddr(host); err == nil {
			addrs = []netip.Addr{a}
		} else {
			ipnet := "ip"
			switch network {
			case "tcp4":
				ipnet = "ip4"
			case "tcp6":
				ipnet = "ip6"
			}
			if addrs, err = r.LookupNetIP(ctx, ipnet, host); err != nil {
				return nil, err
			}
			if len(addrs) == 0 {
				return nil, fmt.Errorf("%s has no address", host)
			}
		}
		var refused, failed error
		for _, a := range addrs {
			if err := g.Check(a); err != nil {
				if refused == nil {
					refused = fmt.Errorf("%s: %w", host, err)
				}
				continue
			}
			c, err := dial(ctx, network, net.JoinHostPort(a.Unmap().String(), port))
			if err == nil {
				return c, nil
			}
			failed = err
		}
		if failed != nil {
			return nil, failed
		}
		return nil, refused
	}
}
