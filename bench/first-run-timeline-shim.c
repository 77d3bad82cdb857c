// The `git` that bench/first-run-timeline.mjs puts first on PATH: runs the real git ($TIMELINE_REAL_GIT) with the
// same argv, stdin, stdout and stderr, and appends one line to $TIMELINE_GIT_LOG: the monotonic clock (ns) when it
// started and when git ended, git's user and system CPU (us), its exit status, then its argv, tab-separated. The
// monotonic clock is the one Node's process.hrtime reads on Linux, so the lines line up with the run's own records.
// A C program, not a shell script: a shell's start would add milliseconds to every git it times.
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv) {
  const char *real = getenv("TIMELINE_REAL_GIT");
  const char *log = getenv("TIMELINE_GIT_LOG");
  if (!real || !log) {
    fputs("first-run-timeline shim: TIMELINE_REAL_GIT and TIMELINE_GIT_LOG must be set\n", stderr);
    return 127;
  }
  long long started = now_ns();
  pid_t pid = fork();
  if (pid < 0) return 127;
  if (pid == 0) {
    argv[0] = (char *)real;
    execv(real, argv);
    _exit(127);
  }
  int status = 0;
  struct rusage usage;
  while (wait4(pid, &status, 0, &usage) < 0) {
  }
  long long ended = now_ns();
  char line[16384];
  int n = snprintf(line, sizeof line, "%lld\t%lld\t%ld\t%ld\t%d", started, ended,
                   (long)(usage.ru_utime.tv_sec * 1000000L + usage.ru_utime.tv_usec),
                   (long)(usage.ru_stime.tv_sec * 1000000L + usage.ru_stime.tv_usec),
                   WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
  for (int i = 1; i < argc && n < (int)sizeof line - 2; i++)
    n += snprintf(line + n, sizeof line - n, "\t%s", argv[i]);
  if (n > (int)sizeof line - 2) n = (int)sizeof line - 2;
  line[n++] = '\n';
  int fd = open(log, O_WRONLY | O_APPEND | O_CREAT, 0600);
  if (fd >= 0) {
    (void)write(fd, line, n);  // one write with O_APPEND: lines of concurrent gits never interleave
    close(fd);
  }
  if (WIFSIGNALED(status)) {
    signal(WTERMSIG(status), SIG_DFL);
    kill(getpid(), WTERMSIG(status));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}
