package bundlethreads

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestThreadFilesLoadByTheirSourceNames names its files in code, as Mattermost's eval suites
// do (`filename: "developers_webapp.json"`), and loads each from the bundle by that name:
// a channel exported in today's layout (`posts`, two threads in one file, as a channel
// summary suite loads it) and a thread exported in the older one (`thread`).
//
//	CURATOR_BUNDLE=path/to/bundle CURATOR_NAMED_THREADS=1 go test ./...
func TestThreadFilesLoadByTheirSourceNames(t *testing.T) {
	bundle := os.Getenv("CURATOR_BUNDLE")
	if bundle == "" || os.Getenv("CURATOR_NAMED_THREADS") == "" {
		t.Skip("set CURATOR_BUNDLE to a bundle of the named threads and CURATOR_NAMED_THREADS=1")
	}
	evalConfigs := []struct {
		name     string
		filename string
		roots    int
	}{
		{name: "developers webapp channel", filename: "developers_webapp.json", roots: 2},
		{name: "thread in the older layout", filename: "summarize_thread.json", roots: 1},
	}
	var rubrics map[string][]string
	data, err := os.ReadFile(filepath.Join(bundle, "mattermost", "rubrics.json"))
	if err != nil {
		t.Fatalf("rubrics.json: %v", err)
	}
	if err := json.Unmarshal(data, &rubrics); err != nil {
		t.Fatalf("rubrics.json: %v", err)
	}
	for _, config := range evalConfigs {
		t.Run(config.name, func(t *testing.T) {
			path := filepath.Join(bundle, "mattermost", config.filename)
			export, order, err := load(path)
			if err != nil {
				t.Fatalf("%s: %v", config.filename, err)
			}
			if _, err := render(export, order); err != nil {
				t.Fatalf("%s: %v", config.filename, err)
			}
			roots := 0
			for _, post := range order {
				if post.RootId == "" {
					roots++
				}
			}
			if roots != config.roots {
				t.Errorf("%s: %d root posts, want %d", config.filename, roots, config.roots)
			}
			if len(rubrics[config.filename]) == 0 {
				t.Errorf("rubrics.json lists no rubric for %s", config.filename)
			}
		})
	}
}
