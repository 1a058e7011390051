/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Raw system calls and the entry point of the proof suite's /init, per
 * architecture.  _start hands start_c() the initial stack pointer: argc,
 * then argv[], NULL, envp[], NULL.
 */
#ifndef UACCESS_PROBE_SYSCALL_H
#define UACCESS_PROBE_SYSCALL_H

void start_c(long *sp);

#if defined(__s390x__)

/* svc 0: number in %r1, arguments in %r2-%r7, result in %r2. */
static inline long sys_call5(long nr, long a, long b, long c, long d, long e)
{
	register long r1 asm("1") = nr;
	register long r2 asm("2") = a;
	register long r3 asm("3") = b;
	register long r4 asm("4") = c;
	register long r5 asm("5") = d;
	register long r6 asm("6") = e;

	asm volatile("svc 0"
		     : "+d" (r2)
		     : "d" (r1), "d" (r3), "d" (r4), "d" (r5), "d" (r6)
		     : "memory", "cc");
	return r2;
}

/* The ABI wants a 160-byte register save area below the caller's frame. */
asm(".globl _start\n"
	"_start:\n"
	"	lgr	%r2, %r15\n"
	"	aghi	%r15, -160\n"
	"	xc	0(8, %r15), 0(%r15)\n"
	"	brasl	%r14, start_c\n");

#else
#error "no system call glue for this architecture: add it here"
#endif

static inline long sys_call4(long nr, long a, long b, long c, long d)
{
	return sys_call5(nr, a, b, c, d, 0);
}

static inline long sys_call3(long nr, long a, long b, long c)
{
	return sys_call5(nr, a, b, c, 0, 0);
}

static inline long sys_call1(long nr, long a)
{
	return sys_call5(nr, a, 0, 0, 0, 0);
}

#endif /* UACCESS_PROBE_SYSCALL_H */
