package formats

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"schedlab/errs"
)

// SimGrid platforms (issue 39): ReadSimGridPlatform reads from a SimGrid
// platform file (XML, versions 4.x, as Batsim 4 takes it) what a batch
// simulation can use, and nothing else:
//
//   - read: every <host> (its id, its speed — of its pstate, the first
//     of a comma-separated list unless the pstate attribute says — and its
//     role property) and every <cluster> (its radical: how many hosts;
//     its speed; a role property applies to all its hosts), at any depth
//     of <zone>/<AS>. A host is a compute node unless its role is master
//     or storage, or (Batsim's default --master-host) its id is
//     master_host; the compute nodes are the machine, their speed the
//     flop rate a profile's flops are divided by.
//   - not read: links, routes and routing (network: a profile that
//     communicates is refused by the workload reader), disks and storage,
//     cores, coordinates, power properties (wattage_per_state,
//     wattage_off: energy), availability and state files, config, and
//     <cabinet>, <peer> and <host_link>, which are refused by name rather
//     than miscounted. Speeds are flop/s with SimGrid's unit suffixes (f,
//     kf, Mf, Gf, Tf, Pf, Ef, Zf, Yf, or the same with "flops").

// Platform is what a batch simulation reads of a SimGrid platform.
type Platform struct {
	// Hosts is the number of compute nodes.
	Hosts int
	// Speed is their speed in flop/s when they all have the same one;
	// 0 when they differ (MinSpeed and MaxSpeed say how).
	Speed float64
	// MinSpeed and MaxSpeed are the compute nodes' slowest and fastest.
	MinSpeed, MaxSpeed float64
}

// maxPlatformHosts bounds the hosts a platform may declare.
const maxPlatformHosts = 10_000_000

// ReadSimGridPlatform reads a SimGrid platform named name. Errors are
// errs.Invalid naming the file, the line and the element.
func ReadSimGridPlatform(name string, data []byte) (*Platform, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	p := &Platform{MinSpeed: math.Inf(1)}
	// open is the host or cluster being read: its properties come as
	// child elements.
	type open struct {
		kind  string // host or cluster
		id    string
		count int
		speed float64
		role  string
		line  int
	}
	var cur *open
	sawPlatform := false
	finish := func(o *open) error {
		role := o.role
		if role == "" && o.kind == "host" && o.id == "master_host" {
			role = "master"
		}
		switch role {
		case "master", "storage":
			return nil
		case "", "compute_node":
		default:
			return errs.Invalidf(fmt.Sprintf("%s line %d", name, o.line), "%s %q: unknown role %q (Batsim's roles: master, compute_node, storage)", o.kind, o.id, role)
		}
		if o.speed <= 0 {
			return errs.Invalidf(fmt.Sprintf("%s line %d", name, o.line), "%s %q: a compute node needs a speed > 0", o.kind, o.id)
		}
		if p.Hosts += o.count; p.Hosts > maxPlatformHosts {
			return errs.New(errs.TooLarge, name, "more than %d hosts", maxPlatformHosts)
		}
		p.MinSpeed, p.MaxSpeed = min(p.MinSpeed, o.speed), max(p.MaxSpeed, o.speed)
		return nil
	}
	for {
		line, _ := d.InputPos()
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, errs.Invalidf(name, "not a SimGrid platform: %v", err)
		}
		where := fmt.Sprintf("%s line %d", name, line)
		switch t := tok.(type) {
		case xml.StartElement:
			attr := func(k string) string {
				for _, a := range t.Attr {
					if a.Name.Local == k {
						return a.Value
					}
				}
				return ""
			}
			switch t.Name.Local {
			case "platform":
				sawPlatform = true
			case "host", "cluster":
				if cur != nil {
					return nil, errs.Invalidf(where, "<%s> inside <%s %q>", t.Name.Local, cur.kind, cur.id)
				}
				o := &open{kind: t.Name.Local, id: attr("id"), count: 1, line: line}
				sp, err := simgridSpeed(attr("speed"), attr("pstate"))
				if err != nil {
					return nil, errs.Invalidf(where, "%s %q: speed: %v", o.kind, o.id, err)
				}
				o.speed = sp
				if o.kind == "cluster" {
					if o.count, err = radicalCount(attr("radical")); err != nil {
						return nil, errs.Invalidf(where, "cluster %q: radical: %v", o.id, err)
					}
				}
				cur = o
			case "prop":
				if cur != nil && attr("id") == "role" {
					cur.role = attr("value")
				}
			case "cabinet", "peer", "host_link":
				return nil, errs.Invalidf(where, "<%s> is not read (schedlab reads <host> and <cluster> only)", t.Name.Local)
			}
		case xml.EndElement:
			if cur != nil && t.Name.Local == cur.kind {
				if err := finish(cur); err != nil {
					return nil, err
				}
				cur = nil
			}
		}
	}
	if !sawPlatform {
		return nil, errs.Invalidf(name, "not a SimGrid platform: no <platform> element")
	}
	if p.Hosts == 0 {
		return nil, errs.Invalidf(name, "the platform has no compute host (hosts whose role is master or storage, or the host master_host, do not compute)")
	}
	if p.MinSpeed == p.MaxSpeed {
		p.Speed = p.MinSpeed
	}
	return p, nil
}

// simgridSpeed reads a host's speed: a comma-separated list of pstates'
// speeds, pstate choosing one (default 0).
func simgridSpeed(s, pstate string) (float64, error) {
	if strings.TrimSpace(s) == "" {
		return 0, fmt.Errorf("missing")
	}
	list := strings.Split(s, ",")
	k := 0
	if pstate != "" {
		var err error
		if k, err = strconv.Atoi(strings.TrimSpace(pstate)); err != nil || k < 0 || k >= len(list) {
			return 0, fmt.Errorf("pstate %q does not name one of its %d speeds", pstate, len(list))
		}
	}
	return simgridFlops(strings.TrimSpace(list[k]))
}

// simgridUnits are SimGrid's speed suffixes (lower-cased) in flop/s.
var simgridUnits = map[string]float64{"": 1, "f": 1, "flops": 1,
	"kf": 1e3, "kflops": 1e3, "mf": 1e6, "mflops": 1e6, "gf": 1e9, "gflops": 1e9,
	"tf": 1e12, "tflops": 1e12, "pf": 1e15, "pflops": 1e15, "ef": 1e18, "eflops": 1e18,
	"zf": 1e21, "zflops": 1e21, "yf": 1e24, "yflops": 1e24}

// simgridFlops reads "1.5Gf" as 1.5e9.
func simgridFlops(s string) (float64, error) {
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.' || s[i] == '-' || s[i] == '+' ||
		(s[i] == 'e' || s[i] == 'E') && i+1 < len(s) && (s[i+1] >= '0' && s[i+1] <= '9' || s[i+1] == '-' || s[i+1] == '+')) {
		i++
	}
	x, err := strconv.ParseFloat(s[:i], 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number with a unit", s)
	}
	u, ok := simgridUnits[strings.ToLower(strings.TrimSpace(s[i:]))]
	if !ok {
		return 0, fmt.Errorf("%q: unknown unit %q (f, kf, Mf, Gf, Tf, ...)", s, s[i:])
	}
	v := x * u
	if math.IsInf(v, 0) || math.IsNaN(v) || v < 0 {
		return 0, fmt.Errorf("%q is out of range", s)
	}
	return v, nil
}

// radicalCount counts a cluster's radical: "0-511" or "0-3,5,7-9".
func radicalCount(s string) (int, error) {
	if strings.TrimSpace(s) == "" {
		return 0, fmt.Errorf("missing")
	}
	n := 0
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err := strconv.Atoi(lo)
		if err != nil || a < 0 {
			return 0, fmt.Errorf("%q is not a number or a range", part)
		}
		z := a
		if isRange {
			if z, err = strconv.Atoi(hi); err != nil || z < a {
				return 0, fmt.Errorf("%q is not a range", part)
			}
		}
		if n += z - a + 1; n > maxPlatformHosts {
			return 0, fmt.Errorf("more than %d hosts", maxPlatformHosts)
		}
	}
	return n, nil
}
