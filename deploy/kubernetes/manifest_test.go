package kubernetes

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

const manifest = "superclaude.yaml"

// turnWait is how long superclaude, as PID 1, waits on SIGTERM for claude to
// finish its turn: supervise.DefaultPolicy.TurnWait. This module does not
// import superclaude's (it would have to follow every dependency superclaude
// takes); cmd/superclaude/apptest checks the manifest against the real value.
const turnWait = 60 * time.Second

// objects are the manifest's documents, decoded.
type objects struct {
	pods []*corev1.Pod
	pvcs map[string]*corev1.PersistentVolumeClaim
}

// documents splits a YAML stream at its "---" lines.
func documents(b []byte) [][]byte {
	var out [][]byte
	for _, doc := range regexp.MustCompile(`(?m)^---[ \t]*$`).Split(string(b), -1) {
		if strings.TrimSpace(regexp.MustCompile(`(?m)^\s*#.*$`).ReplaceAllString(doc, "")) != "" {
			out = append(out, []byte(doc))
		}
	}
	return out
}

// decode decodes every document strictly into its Kubernetes type: a field
// the type does not have (a misspelling, a field at the wrong level) or
// one given twice is an error, as `kubectl apply --validate=strict` would
// make it.
func decode(b []byte) (*objects, error) {
	objs := &objects{pvcs: map[string]*corev1.PersistentVolumeClaim{}}
	for i, doc := range documents(b) {
		var tm metav1.TypeMeta
		if err := yaml.Unmarshal(doc, &tm); err != nil {
			return nil, fmt.Errorf("document %d: %w", i+1, err)
		}
		switch tm.APIVersion + " " + tm.Kind {
		case "v1 Pod":
			var pod corev1.Pod
			if err := yaml.UnmarshalStrict(doc, &pod); err != nil {
				return nil, fmt.Errorf("document %d (Pod): %w", i+1, err)
			}
			objs.pods = append(objs.pods, &pod)
		case "v1 PersistentVolumeClaim":
			var pvc corev1.PersistentVolumeClaim
			if err := yaml.UnmarshalStrict(doc, &pvc); err != nil {
				return nil, fmt.Errorf("document %d (PersistentVolumeClaim): %w", i+1, err)
			}
			objs.pvcs[pvc.Name] = &pvc
		default:
			return nil, fmt.Errorf("document %d: %q %q is not a kind this test knows", i+1, tm.APIVersion, tm.Kind)
		}
	}
	return objs, nil
}

func load(t *testing.T) *objects {
	t.Helper()
	b, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	objs, err := decode(b)
	if err != nil {
		t.Fatalf("%s: %v", manifest, err)
	}
	if len(objs.pods) != 1 {
		t.Fatalf("%s has %d pods, want one", manifest, len(objs.pods))
	}
	return objs
}

// The decoding is strict: a misspelt field, a field at the wrong level, a
// field given twice and a value of the wrong type are all refused, naming
// the field. (Were it not, the other tests here would pass a manifest that
// Kubernetes reads otherwise.)
func TestAMistakeInTheManifestIsRefused(t *testing.T) {
	good, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, from, to, want string }{
		{"a misspelt field", "      tty: true", "      ttty: true", `unknown field "ttty"`},
		{"a field at the wrong level", "  terminationGracePeriodSeconds: 90", "  terminationGracePeriodSeconds: 90\n  stdin: true", `unknown field "stdin"`},
		{"a field given twice", "      stdin: true", "      stdin: true\n      stdin: false", `"stdin" already set`},
		{"a value of the wrong type", "  terminationGracePeriodSeconds: 90", "  terminationGracePeriodSeconds: ninety", "terminationGracePeriodSeconds"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !bytes.Contains(good, []byte(tc.from+"\n")) {
				t.Fatalf("%s no longer has %q: update this test", manifest, tc.from)
			}
			_, err := decode(bytes.Replace(good, []byte(tc.from+"\n"), []byte(tc.to+"\n"), 1))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("decoding with %q: %v; want an error saying %s", tc.to, err, tc.want)
			}
		})
	}
}

// The pod runs superclaude as PID 1 on a terminal people can attach to,
// with its state on a volume, and a stop that leaves time for the turn.
func TestThePodRunsAFleetMember(t *testing.T) {
	objs := load(t)
	pod := objs.pods[0]
	spec := pod.Spec
	if len(spec.Containers) != 1 {
		t.Fatalf("the pod has %d containers, want one", len(spec.Containers))
	}
	c := spec.Containers[0]

	// PID 1: the image's entrypoint, not a command of the manifest's (a
	// shell in front would get the SIGTERM and the orphans instead).
	if len(c.Command) != 0 {
		t.Errorf("the container sets command %q: superclaude, the image's entrypoint, must be PID 1", c.Command)
	}
	// kubectl attach -it: a terminal, and stdin that stays open for the
	// next attach.
	if !c.TTY || !c.Stdin || c.StdinOnce {
		t.Errorf("tty %v, stdin %v, stdinOnce %v: want a terminal and stdin kept open for kubectl attach -it", c.TTY, c.Stdin, c.StdinOnce)
	}

	// The grace covers superclaude's wait for the turn and claude's own
	// grace after it, with room to spare.
	wait := turnWait + 10*time.Second
	if g := spec.TerminationGracePeriodSeconds; g == nil || time.Duration(*g)*time.Second < wait {
		t.Errorf("terminationGracePeriodSeconds %v: want at least %s (superclaude waits up to %s for claude's turn on SIGTERM)",
			g, wait, turnWait)
	}
	if spec.RestartPolicy == corev1.RestartPolicyNever {
		t.Error("restartPolicy Never: a crashed superclaude would not come back to resume")
	}

	// Sessions and Claude's config: HOME is on a volume backed by a claim
	// of this file.
	home := dockerfile(t).home
	mounted := false
	for _, m := range c.VolumeMounts {
		if m.MountPath != home {
			continue
		}
		mounted = true
		for _, v := range spec.Volumes {
			if v.Name != m.Name {
				continue
			}
			if v.PersistentVolumeClaim == nil || objs.pvcs[v.PersistentVolumeClaim.ClaimName] == nil {
				t.Errorf("volume %q at %s is not a claim of %s: sessions and Claude's config would not survive the pod", v.Name, home, manifest)
			}
		}
	}
	if !mounted {
		t.Errorf("nothing is mounted at HOME (%s): sessions and Claude's config would be lost with the container", home)
	}

	// The image's user, not root.
	sc := spec.SecurityContext
	if sc == nil || sc.RunAsUser == nil || strconv.FormatInt(*sc.RunAsUser, 10) != dockerfile(t).uid || sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot {
		t.Errorf("securityContext %+v: want runAsUser %s (the image's user) and runAsNonRoot", sc, dockerfile(t).uid)
	}
	if sc != nil && (sc.FSGroup == nil || sc.RunAsGroup == nil || *sc.FSGroup != *sc.RunAsGroup) {
		t.Errorf("fsGroup %v: want the user's group, so that the volume is writable", sc.FSGroup)
	}

	// A pane identity that survives the container, so that a restart
	// resumes the pod's conversation; labelled, not a tmux pane number.
	env := map[string]corev1.EnvVar{}
	for _, e := range c.Env {
		env[e.Name] = e
	}
	if id := env["SUPERCLAUDE_PANE_ID"].Value; id == "" || strings.HasPrefix(id, "%") {
		t.Errorf("SUPERCLAUDE_PANE_ID = %q: want a stable, labelled identity", id)
	}
	for _, ref := range regexp.MustCompile(`\$\(([A-Z_]+)\)`).FindAllStringSubmatch(env["SUPERCLAUDE_PANE_ID"].Value, -1) {
		if _, ok := env[ref[1]]; !ok {
			t.Errorf("SUPERCLAUDE_PANE_ID refers to $(%s), which is not set before it", ref[1])
		}
	}
	// The API key comes from a Secret, never written in the manifest.
	if k := env["ANTHROPIC_API_KEY"]; k.Value != "" || k.ValueFrom == nil || k.ValueFrom.SecretKeyRef == nil {
		t.Errorf("ANTHROPIC_API_KEY %+v: want it from a Secret", k)
	}
}

// image is what the Dockerfile says about the image the manifest runs.
type image struct {
	uid, home string
}

// dockerfile reads the repository's Dockerfile for what the manifest must
// agree with, and checks that superclaude is its entrypoint in exec form.
func dockerfile(t *testing.T) image {
	t.Helper()
	b, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	var img image
	if m := regexp.MustCompile(`useradd [^\n]*--uid (\d+)[^\n]* agent\b`).FindStringSubmatch(s); m != nil {
		img.uid = m[1]
	}
	if m := regexp.MustCompile(`(?m)^ENV HOME=(\S+)`).FindStringSubmatch(s); m != nil {
		img.home = m[1]
	}
	if img.uid == "" || img.home == "" || !regexp.MustCompile(`(?m)^USER agent$`).MatchString(s) {
		t.Fatalf("the Dockerfile no longer makes the user agent with a uid, HOME and USER this test reads: update it")
	}
	if !regexp.MustCompile(`(?m)^ENTRYPOINT \["/usr/local/bin/superclaude"\]$`).MatchString(s) {
		t.Error(`the Dockerfile's ENTRYPOINT is not ["/usr/local/bin/superclaude"]: superclaude must be PID 1, in exec form, not under a shell`)
	}
	return img
}
