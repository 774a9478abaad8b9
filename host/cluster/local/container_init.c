/* The PID 1 of a native container. The container's setup process started the command (its child,
 * in a process group of its own) and then exec'd this program in its place, so this process is
 * the command's parent: it forwards every signal it gets to the command's process group (a PID 1
 * ignores default-disposition signals, so the command could not be signalled otherwise), reaps
 * every process, and when the command ends writes its wait status to the status pipe
 * (container_init.h) and exits with its exit code; the kernel then kills whatever is left in the
 * PID namespace. Exec'd once per container, so it starts without libc where it can (x86-64,
 * AArch64: raw system calls, its own _start; a libc start probes CPU features, which costs as much
 * as the command's own start in a VM), with libc elsewhere.
 *
 * argv: jobhost-init <the command's pid>. Every signal is blocked on entry and stays blocked. */
#include <signal.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "container_init.h"

#if JOBHOST_INIT_FREESTANDING

static long sys4(long n, long a, long b, long c, long d) {
#if defined(__x86_64__)
  register long r10 __asm__("r10") = d;
  long ret;
  __asm__ volatile("syscall" : "=a"(ret) : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10) : "rcx", "r11", "memory");
  return ret;
#elif defined(__aarch64__)
  register long x8 __asm__("x8") = n;
  register long x0 __asm__("x0") = a;
  register long x1 __asm__("x1") = b;
  register long x2 __asm__("x2") = c;
  register long x3 __asm__("x3") = d;
  __asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3) : "memory");
  return x0;
#else
#error "JOBHOST_INIT_FREESTANDING needs x86-64 or AArch64"
#endif
}

/* Compilers may emit calls to these for structure copies. */
void* memset(void* dst, int c, unsigned long n);
void* memcpy(void* dst, const void* src, unsigned long n);
void* memset(void* dst, int c, unsigned long n) {
  unsigned char* d = (unsigned char*)dst;
  while (n--) *d++ = (unsigned char)c;
  return dst;
}
void* memcpy(void* dst, const void* src, unsigned long n) {
  unsigned char* d = (unsigned char*)dst;
  const unsigned char* s = (const unsigned char*)src;
  while (n--) *d++ = *s++;
  return dst;
}

#else /* with libc */

#include <unistd.h>

static long sys4(long n, long a, long b, long c, long d) { return syscall(n, a, b, c, d); }

#endif

#define SYS(n, a, b, c, d) sys4((n), (long)(a), (long)(b), (long)(c), (long)(d))

static const uint64_t kAllSignals = ~(uint64_t)0;

static void __attribute__((noreturn)) exitNow(long code) {
  for (;;) SYS(SYS_exit_group, code, 0, 0, 0);
}

static long parsePid(const char* s) {
  long n = 0;
  if (!*s) return -1;
  for (; *s; ++s) {
    if (*s < '0' || *s > '9') return -1;
    n = n * 10 + (*s - '0');
  }
  return n;
}

/* Reaps every exited child; returns 1 (with its status) once the command is among them. */
static int reapAll(long command, int* commandStatus) {
  int status = 0;
  long pid;
  while ((pid = SYS(SYS_wait4, -1, &status, WNOHANG, 0)) > 0)
    if (pid == command) {
      *commandStatus = status;
      return 1;
    }
  return 0;
}

static int initMain(int argc, char** argv) {
  const long command = argc == 2 ? parsePid(argv[1]) : -1;
  if (command <= 0) return 127;
  SYS(SYS_prctl, PR_SET_NAME, "jobhost-init", 0, 0);
  /* SIGCHLD is at its default (the setup process saw to it): a pending one may predate this program,
   * so reap before every wait rather than trust that one arrives. */
  int status = 0;
  while (!reapAll(command, &status)) {
    const long sig = SYS(SYS_rt_sigtimedwait, &kAllSignals, 0, 0, sizeof kAllSignals);
    if (sig > 0 && sig != SIGCHLD && SYS(SYS_kill, -command, sig, 0, 0) != 0) SYS(SYS_kill, command, sig, 0, 0);
  }
  const struct jobhost_init_report r = {JOBHOST_INIT_EXITED, status};
  SYS(SYS_write, JOBHOST_INIT_STATUS_FD, &r, sizeof r, 0); /* else jobhost reads our exit status */
  return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

#if JOBHOST_INIT_FREESTANDING

/* The entry point: argc and argv on the initial stack. */
__attribute__((used, noreturn)) void startC(long* sp);
void startC(long* sp) { exitNow(initMain((int)sp[0], (char**)(sp + 1))); }

#if defined(__x86_64__)
__asm__(".text\n.globl _start\n_start:\n  xor %ebp, %ebp\n  mov %rsp, %rdi\n  and $-16, %rsp\n  call startC\n  hlt\n");
#else
__asm__(".text\n.globl _start\n_start:\n  mov x29, #0\n  mov x30, #0\n  mov x0, sp\n  bl startC\n  b .\n");
#endif

#else

int main(int argc, char** argv) { exitNow(initMain(argc, argv)); }

#endif
