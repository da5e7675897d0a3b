package charts

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"strings"
	"testing"

	"schedlab/static"
)

// The charts need the vendored ECharts 5 build that static/README.md
// records; these tests live here because static/ holds assets only.

func TestStaticEmbedsEChartsAndStylesheet(t *testing.T) {
	for _, name := range []string{"echarts.min.js", "app.css"} {
		if _, err := fs.Stat(static.FS, name); err != nil {
			t.Errorf("%s is not embedded: %v", name, err)
		}
	}
}

func TestVendoredEChartsMatchesREADMEChecksum(t *testing.T) {
	data, err := static.FS.ReadFile("echarts.min.js")
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	got := hex.EncodeToString(sum[:])
	readme, err := os.ReadFile("../../static/README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "sha256 of the file: `"+got+"`") {
		t.Errorf("echarts.min.js sha256 %s is not the one recorded in static/README.md", got)
	}
	if !strings.Contains(string(data[:2000]), "Apache") || !strings.Contains(string(data), `"5.6.0"`) {
		t.Errorf("echarts.min.js does not look like the Apache ECharts 5.6.0 build")
	}
}
