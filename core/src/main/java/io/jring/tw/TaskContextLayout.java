package io.jring.tw;

// The fields of TaskContext that other threads write or that the owner writes on every
// entry and run, laid out by class hierarchy (as JCTools does, and MpscTaskList): HotSpot
// lays out a superclass's fields before its subclass's, so the run token and the owner-only
// run state each sit between 128 bytes of padding (two cache lines, for the adjacent-line
// prefetcher), and the read-mostly fields (its lists, owner, used kinds, poller) come after,
// in the classes below TaskContextPad2 (TaskWorkRunner, RunToken, TaskContext). Bytes rather
// than longs, so that no hole is left before a pad for a subclass field to fill.

abstract class TaskContextPad0 {
    byte p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p0a, p0b, p0c, p0d, p0e, p0f;
    byte p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, p1a, p1b, p1c, p1d, p1e, p1f;
    byte p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p2a, p2b, p2c, p2d, p2e, p2f;
    byte p30, p31, p32, p33, p34, p35, p36, p37, p38, p39, p3a, p3b, p3c, p3d, p3e, p3f;
    byte p40, p41, p42, p43, p44, p45, p46, p47, p48, p49, p4a, p4b, p4c, p4d, p4e, p4f;
    byte p50, p51, p52, p53, p54, p55, p56, p57, p58, p59, p5a, p5b, p5c, p5d, p5e, p5f;
    byte p60, p61, p62, p63, p64, p65, p66, p67, p68, p69, p6a, p6b, p6c, p6d, p6e, p6f;
    byte p70, p71, p72, p73, p74, p75, p76, p77, p78, p79, p7a, p7b, p7c, p7d, p7e, p7f;
}

/** What threads other than the owner write. */
abstract class TaskContextToken extends TaskContextPad0 {
    /**
     * Run token: FREE, ACTIVE (owner inside), SLEEPING (owner parked in a wait), HELPED
     * (borrowed). Written with CAS or volatile stores by the owner and helpers; read
     * volatile by adders (wake decision).
     */
    volatile int state;

    /** Wakeups delivered to the owner (unpark calls), for tests and stats; adders increment atomically. */
    volatile long wakeups;
}

abstract class TaskContextPad1 extends TaskContextToken {
    byte q00, q01, q02, q03, q04, q05, q06, q07, q08, q09, q0a, q0b, q0c, q0d, q0e, q0f;
    byte q10, q11, q12, q13, q14, q15, q16, q17, q18, q19, q1a, q1b, q1c, q1d, q1e, q1f;
    byte q20, q21, q22, q23, q24, q25, q26, q27, q28, q29, q2a, q2b, q2c, q2d, q2e, q2f;
    byte q30, q31, q32, q33, q34, q35, q36, q37, q38, q39, q3a, q3b, q3c, q3d, q3e, q3f;
    byte q40, q41, q42, q43, q44, q45, q46, q47, q48, q49, q4a, q4b, q4c, q4d, q4e, q4f;
    byte q50, q51, q52, q53, q54, q55, q56, q57, q58, q59, q5a, q5b, q5c, q5d, q5e, q5f;
    byte q60, q61, q62, q63, q64, q65, q66, q67, q68, q69, q6a, q6b, q6c, q6d, q6e, q6f;
    byte q70, q71, q72, q73, q74, q75, q76, q77, q78, q79, q7a, q7b, q7c, q7d, q7e, q7f;
}

/** What only the token holder touches (plain), on every entry and run. */
abstract class TaskContextRun extends TaskContextPad1 {
    /** Owner-only nesting depth of enter. */
    int depth;

    /**
     * The owner queued task work on its own lists (an inline failure completing through task
     * work, a cancelled poll's -ECANCELED): its submit runs it before returning, as Linux runs
     * task work on the way back to user space. Owner only, plain: set by addTaskWork when the
     * adder is the owner, cleared by takeSelfQueued.
     */
    boolean selfQueued;

    // Per-run state of runTaskWork.
    TaskWorkTarget runTarget;
    /** {@code runCount} when {@code runTarget}'s run began. */
    int targetStart;
    boolean runCancel;
    boolean running;
    int runCount;
}

abstract class TaskContextPad2 extends TaskContextRun {
    byte r00, r01, r02, r03, r04, r05, r06, r07, r08, r09, r0a, r0b, r0c, r0d, r0e, r0f;
    byte r10, r11, r12, r13, r14, r15, r16, r17, r18, r19, r1a, r1b, r1c, r1d, r1e, r1f;
    byte r20, r21, r22, r23, r24, r25, r26, r27, r28, r29, r2a, r2b, r2c, r2d, r2e, r2f;
    byte r30, r31, r32, r33, r34, r35, r36, r37, r38, r39, r3a, r3b, r3c, r3d, r3e, r3f;
    byte r40, r41, r42, r43, r44, r45, r46, r47, r48, r49, r4a, r4b, r4c, r4d, r4e, r4f;
    byte r50, r51, r52, r53, r54, r55, r56, r57, r58, r59, r5a, r5b, r5c, r5d, r5e, r5f;
    byte r60, r61, r62, r63, r64, r65, r66, r67, r68, r69, r6a, r6b, r6c, r6d, r6e, r6f;
    byte r70, r71, r72, r73, r74, r75, r76, r77, r78, r79, r7a, r7b, r7c, r7d, r7e, r7f;
}
