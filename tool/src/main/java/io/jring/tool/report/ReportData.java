package io.jring.tool.report;

import java.util.List;
import java.util.Map;

/**
 * Everything a report page shows, and what its JSON holds.
 *
 * @param about   what was measured where, in display order: command, date, CPU, kernel, fio, file...
 * @param notes   engines or modes skipped and why, one sentence each
 * @param results every run, in the order they ran
 */
public record ReportData(Map<String, String> about, List<String> notes, List<SweepResult> results) {}
