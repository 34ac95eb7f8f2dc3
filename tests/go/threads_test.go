// Package bundlethreads checks that every Mattermost thread file of a curator bundle loads
// the way Mattermost's Go eval package loads it (evals.LoadThreadFromJSON) and can be
// printed the way its ThreadExport.String() prints it.
//
// The types below mirror the JSON layout of the eval package's ThreadExport and of the
// Mattermost model types it decodes into (field names and JSON types), using only the
// standard library, so the check needs no network and no Mattermost module.
//
//	CURATOR_BUNDLE=path/to/bundle go test ./...
package bundlethreads

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// ThreadExport is the eval package's layout: posts by id, channel, team, users by id,
// file infos by id and file bytes (base64 in JSON) by id.
type ThreadExport struct {
	Posts     map[string]*Post     `json:"posts"`
	Channel   *Channel             `json:"channel"`
	Team      *Team                `json:"team"`
	Users     map[string]*User     `json:"users"`
	FileInfos map[string]*FileInfo `json:"file_infos"`
	Files     map[string][]byte    `json:"files"`
}

type Post struct {
	Id            string         `json:"id"`
	CreateAt      int64          `json:"create_at"`
	UpdateAt      int64          `json:"update_at"`
	EditAt        int64          `json:"edit_at"`
	DeleteAt      int64          `json:"delete_at"`
	IsPinned      bool           `json:"is_pinned"`
	UserId        string         `json:"user_id"`
	ChannelId     string         `json:"channel_id"`
	RootId        string         `json:"root_id"`
	OriginalId    string         `json:"original_id"`
	Message       string         `json:"message"`
	Type          string         `json:"type"`
	Props         map[string]any `json:"props"`
	Hashtags      string         `json:"hashtags"`
	FileIds       []string       `json:"file_ids"`
	PendingPostId string         `json:"pending_post_id"`
	HasReactions  bool           `json:"has_reactions"`
	ReplyCount    int64          `json:"reply_count"`
	LastReplyAt   int64          `json:"last_reply_at"`
	Metadata      *PostMetadata  `json:"metadata"`
}

type PostMetadata struct {
	Embeds    []map[string]any          `json:"embeds"`
	Emojis    []map[string]any          `json:"emojis"`
	Files     []*FileInfo               `json:"files"`
	Images    map[string]map[string]any `json:"images"`
	Reactions []map[string]any          `json:"reactions"`
	Priority  map[string]any            `json:"priority"`
}

type User struct {
	Id          string            `json:"id"`
	CreateAt    int64             `json:"create_at"`
	Username    string            `json:"username"`
	Email       string            `json:"email"`
	Nickname    string            `json:"nickname"`
	FirstName   string            `json:"first_name"`
	LastName    string            `json:"last_name"`
	Position    string            `json:"position"`
	Roles       string            `json:"roles"`
	Props       map[string]string `json:"props"`
	NotifyProps map[string]string `json:"notify_props"`
	Locale      string            `json:"locale"`
	Timezone    map[string]string `json:"timezone"`
	IsBot       bool              `json:"is_bot"`
}

type Channel struct {
	Id            string         `json:"id"`
	CreateAt      int64          `json:"create_at"`
	UpdateAt      int64          `json:"update_at"`
	DeleteAt      int64          `json:"delete_at"`
	TeamId        string         `json:"team_id"`
	Type          string         `json:"type"`
	DisplayName   string         `json:"display_name"`
	Name          string         `json:"name"`
	Header        string         `json:"header"`
	Purpose       string         `json:"purpose"`
	LastPostAt    int64          `json:"last_post_at"`
	TotalMsgCount int64          `json:"total_msg_count"`
	CreatorId     string         `json:"creator_id"`
	Props         map[string]any `json:"props"`
}

type Team struct {
	Id          string `json:"id"`
	CreateAt    int64  `json:"create_at"`
	UpdateAt    int64  `json:"update_at"`
	DeleteAt    int64  `json:"delete_at"`
	DisplayName string `json:"display_name"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Email       string `json:"email"`
	Type        string `json:"type"`
}

type FileInfo struct {
	Id        string `json:"id"`
	PostId    string `json:"post_id"`
	Name      string `json:"name"`
	Extension string `json:"extension"`
	Size      int64  `json:"size"`
	MimeType  string `json:"mime_type"`
}

// displayName is the model's User.GetDisplayName(ShowFullName): the full name, else the username.
func (u *User) displayName() string {
	full := strings.TrimSpace(u.FirstName + " " + u.LastName)
	if full != "" {
		return full
	}
	return u.Username
}

// load decodes a thread file as LoadThreadFromJSON does: posts required, a root post
// (empty root_id) required, posts ordered newest first as PostList.SortByCreateAt leaves them.
func load(path string) (*ThreadExport, []*Post, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	var export ThreadExport
	if err := json.Unmarshal(data, &export); err != nil {
		return nil, nil, fmt.Errorf("unmarshal: %w", err)
	}
	if len(export.Posts) == 0 {
		return nil, nil, fmt.Errorf("no posts loaded from file")
	}
	order := make([]*Post, 0, len(export.Posts))
	root := false
	for _, post := range export.Posts {
		order = append(order, post)
		root = root || post.RootId == ""
	}
	if !root {
		return nil, nil, fmt.Errorf("root post not found in thread data")
	}
	sort.SliceStable(order, func(i, j int) bool { return order[i].CreateAt > order[j].CreateAt })
	return &export, order, nil
}

// render walks the export as ThreadExport.String() does; where String() would dereference
// a nil team, channel or user (and panic), it returns an error instead.
func render(export *ThreadExport, order []*Post) (string, error) {
	if export.Team == nil || export.Channel == nil {
		return "", fmt.Errorf("team or channel missing")
	}
	var out strings.Builder
	fmt.Fprintf(&out, "Thread Export: %s > %s\n", export.Team.DisplayName, export.Channel.DisplayName)
	fmt.Fprintf(&out, "Posts: %d\n\n", len(order))
	for i := len(order) - 1; i >= 0; i-- {
		post := order[i]
		user := export.Users[post.UserId]
		if user == nil {
			return "", fmt.Errorf("post %s: author %q not in users", post.Id, post.UserId)
		}
		tag := "[REPLY]"
		if post.RootId == "" {
			tag = "[ROOT]"
		}
		fmt.Fprintf(&out, "%s %s (@%s) - %s\n", tag, user.displayName(), user.Username,
			time.Unix(post.CreateAt/1000, 0).UTC().Format("2006-01-02 15:04:05"))
		if post.Message != "" {
			fmt.Fprintf(&out, "  %s\n", post.Message)
		}
		for _, fileID := range post.FileIds {
			if info, ok := export.FileInfos[fileID]; ok {
				fmt.Fprintf(&out, "    - %s (%s)\n", info.Name, info.MimeType)
			} else {
				fmt.Fprintf(&out, "    - File ID: %s (info not available)\n", fileID)
			}
		}
		out.WriteString("\n")
	}
	return out.String(), nil
}

func TestBundleThreadFilesLoadLikeTheEvalPackage(t *testing.T) {
	bundle := os.Getenv("CURATOR_BUNDLE")
	if bundle == "" {
		t.Skip("set CURATOR_BUNDLE to a built bundle directory")
	}
	folder := filepath.Join(bundle, "mattermost")
	rubrics, err := readRubrics(folder)
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(folder, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	threads := 0
	for _, path := range files {
		name := filepath.Base(path)
		if name == "rubrics.json" {
			continue
		}
		threads++
		t.Run(name, func(t *testing.T) {
			export, order, err := load(path)
			if err != nil {
				t.Fatal(err)
			}
			text, err := render(export, order)
			if err != nil {
				t.Fatal(err)
			}
			for _, post := range order {
				if post.Message != "" && !strings.Contains(text, post.Message) {
					t.Errorf("post %s is missing from the rendered thread", post.Id)
				}
			}
			if _, listed := rubrics[name]; !listed {
				t.Errorf("%s is not listed in rubrics.json", name)
			} else if _, err := tasksOf(rubrics[name]); err != nil {
				t.Errorf("rubrics.json: %s: %v", name, err)
			}
		})
	}
	if threads == 0 || threads != len(rubrics) {
		t.Fatalf("%d thread files, %d entries in rubrics.json", threads, len(rubrics))
	}
	fmt.Printf("checked %d thread files\n", threads)
}

// readRubrics reads rubrics.json: thread file name -> its entry (see tasksOf).
func readRubrics(folder string) (map[string]json.RawMessage, error) {
	data, err := os.ReadFile(filepath.Join(folder, "rubrics.json"))
	if err != nil {
		return nil, fmt.Errorf("rubrics.json: %w", err)
	}
	var rubrics map[string]json.RawMessage
	if err := json.Unmarshal(data, &rubrics); err != nil {
		return nil, fmt.Errorf("rubrics.json: %w", err)
	}
	return rubrics, nil
}

// tasksOf reads one rubrics.json entry: a thread with named tasks maps task -> its rubric
// statements; any other thread lists its rubric statements, returned as the task "".
func tasksOf(entry json.RawMessage) (map[string][]string, error) {
	var plain []string
	if err := json.Unmarshal(entry, &plain); err == nil {
		return map[string][]string{"": plain}, nil
	}
	var tasks map[string][]string
	if err := json.Unmarshal(entry, &tasks); err != nil {
		return nil, fmt.Errorf("neither a list of rubrics nor task -> rubrics: %w", err)
	}
	return tasks, nil
}

// TestNamedTaskRubrics is what a suite running one prompt over a thread does: load the
// thread by its file name, then take the rubrics of its task from rubrics.json.
//
//	CURATOR_BUNDLE=... CURATOR_THREAD=name.json CURATOR_TASK=action_items go test ./...
func TestNamedTaskRubrics(t *testing.T) {
	bundle, name, task := os.Getenv("CURATOR_BUNDLE"), os.Getenv("CURATOR_THREAD"), os.Getenv("CURATOR_TASK")
	if bundle == "" || name == "" || task == "" {
		t.Skip("set CURATOR_BUNDLE, CURATOR_THREAD and CURATOR_TASK")
	}
	folder := filepath.Join(bundle, "mattermost")
	export, order, err := load(filepath.Join(folder, name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := render(export, order); err != nil {
		t.Fatal(err)
	}
	rubrics, err := readRubrics(folder)
	if err != nil {
		t.Fatal(err)
	}
	entry, listed := rubrics[name]
	if !listed {
		t.Fatalf("%s is not listed in rubrics.json", name)
	}
	tasks, err := tasksOf(entry)
	if err != nil {
		t.Fatal(err)
	}
	statements, found := tasks[task]
	if !found || len(statements) == 0 {
		t.Fatalf("%s has no rubrics for the task %q", name, task)
	}
	fmt.Printf("task %s of %s (%d posts): %d rubrics\n", task, name, len(order), len(statements))
	for _, statement := range statements {
		fmt.Printf("rubric: %s\n", statement)
	}
}
