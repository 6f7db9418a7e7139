package dev.rdmacm.conformance;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

@Timeout(10)
class CmtimeRoundsTest
{
    /** What strace 6.1's -c -f printed around rdma-core's cmtime of 100 connections in the guest (2026-12-05), shortened. */
    private static final String STRACE = """
        % time     seconds  usecs/call     calls    errors syscall
        ------ ----------- ----------- --------- --------- ----------------
         47.80    5.288321        2916      1813           write
         19.38    2.143386         460      4657           sched_yield
         11.59    1.282522        1798       713         3 ioctl
          0.00    0.000000           0         1         1 access
        ------ ----------- ----------- --------- --------- ----------------
        100.00   11.062587        1175      9412         8 total
        """;

    @Test
    void shouldReadTheCallsOfEverySystemCallAndTheTotalFromStracesSummary()
    {
        assertEquals(Map.of("write", 1813L, "sched_yield", 4657L, "ioctl", 713L, "access", 1L, "total", 9412L),
            CmtimeRounds.strace(STRACE));
    }

    @Test
    void shouldGiveTheLinesOfOneSectionAndTheWordsAfterAMarkersName()
    {
        final String output = "== before\nstat 1 2\n== after\nstat 3 4\nkt x 5\n== status 0\n";

        assertEquals("stat 3 4\nkt x 5\n", CmtimeRounds.section(output, "after"));
        assertEquals("0\n", CmtimeRounds.section(output, "status"));
    }

    @Test
    void shouldCountAKernelThreadUnderItsNameWithoutItsCpuAndAKworkerUnderItsLastWorkqueue()
    {
        assertEquals("kworker-ib_cm", CmtimeRounds.Snapshot.group("kworker/u4:2-ib_cm"));
        assertEquals("kworker", CmtimeRounds.Snapshot.group("kworker/1:0"));
        assertEquals("ksoftirqd", CmtimeRounds.Snapshot.group("ksoftirqd/0"));
        assertEquals("rcu_preempt", CmtimeRounds.Snapshot.group("rcu_preempt"));
    }

    @Test
    void shouldAddUserAndSystemTicksOfAStatLineWhoseNameHoldsSpacesAndParentheses()
    {
        // fields 14 and 15 (utime 20, stime 30), counted from the name's last parenthesis
        assertEquals(50, CmtimeDriver.ticksOf("42 (C1 (x) y) S 1 2 3 4 5 6 7 8 9 10 20 30 0 0 20 0 2 0 10317"));
    }

    @Test
    void shouldTakeTheMiddleOfAnOddCountAndTheMeanOfTheTwoMiddlesOfAnEvenOne()
    {
        assertEquals(3.0, CmtimeRounds.median(new double[] {5, 1, 3}));
        assertEquals(2.5, CmtimeRounds.median(new double[] {4, 1, 3, 2}));
    }
}
