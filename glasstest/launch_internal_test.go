package glasstest

import (
	"errors"
	"testing"
)

// TestLaunchSaysWhenTheChromiumToLaunchIsNoFile: a Chromium named in the
// configuration that is missing, or a directory, is one wrapped
// ErrNoBrowser before any driver starts, naming GLASS_CHROMIUM when that is
// where the name came from.
func TestLaunchSaysWhenTheChromiumToLaunchIsNoFile(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(EnvChromium, "")
	for _, c := range []struct {
		exe, env, want string
	}{
		{exe: dir + "/no-such-chrome", want: `glasstest: the Chromium "` + dir + `/no-such-chrome" is not an executable file: no Chromium found`},
		{exe: dir, want: `glasstest: the Chromium "` + dir + `" is not an executable file: no Chromium found`},
		{exe: dir + "/gone", env: dir + "/gone", want: `glasstest: GLASS_CHROMIUM="` + dir + `/gone" is not an executable file: no Chromium found`},
	} {
		t.Setenv(EnvChromium, c.env)
		b, err := Launch(BrowserConfig{Executable: c.exe})
		if b != nil || err == nil {
			t.Fatalf("Launch(%q) = %v, %v; want an error", c.exe, b, err)
		}
		if err.Error() != c.want || !errors.Is(err, ErrNoBrowser) {
			t.Errorf("Launch(%q): %q (is ErrNoBrowser: %v), want %q", c.exe, err, errors.Is(err, ErrNoBrowser), c.want)
		}
	}
}
