package io.jring.tool.fio;

import java.util.ArrayList;
import java.util.List;

/**
 * One entry of the report (fio's {@code threadstats} in {@code __show_run_stats}): a job, or
 * with {@code group_reporting} all the jobs of its group summed into one, named after the
 * first, with {@code members} counting them ("jobs=N" in fio's header).
 */
record ReportedJob(String name, int groupId, int members, JobSpec spec, JobStats stats) {

    /** The entries for {@code jobs}, in order: consecutive group_reporting jobs of one group become one. */
    static List<ReportedJob> of(List<Job> jobs) {
        List<ReportedJob> entries = new ArrayList<>();
        JobStats sum = null;
        Job first = null;
        int members = 0;
        for (Job job : jobs) {
            boolean joins = first != null && job.spec.groupReporting() && first.spec.groupReporting() && job.groupId == first.groupId;
            if (!joins) {
                if (first != null) {
                    entries.add(new ReportedJob(first.spec.name(), first.groupId, members, first.spec, sum));
                }
                first = job;
                members = 0;
                sum = job.spec.groupReporting() ? new JobStats() : job.stats;
            }
            if (job.spec.groupReporting()) {
                sum.add(job.stats);
            }
            members++;
        }
        if (first != null) {
            entries.add(new ReportedJob(first.spec.name(), first.groupId, members, first.spec, sum));
        }
        return entries;
    }

    /** The groups' numbers, 0..n-1 as fio numbers them. */
    static int groups(List<ReportedJob> entries) {
        int max = -1;
        for (ReportedJob e : entries) {
            max = Math.max(max, e.groupId);
        }
        return max + 1;
    }
}
