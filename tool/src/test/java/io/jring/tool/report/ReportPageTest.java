package io.jring.tool.report;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Mirrors {@link ReportPage} and {@link LinePlot}: pages rendered from a recorded
 * {@code jring report --quick} (report-quick.json: its runs' outputs trimmed to the fields
 * the report reads) are well-formed XML with the expected charts, series, axes and legend.
 */
class ReportPageTest {

    private static final String SVG = "http://www.w3.org/2000/svg";
    private static final String XHTML = "http://www.w3.org/1999/xhtml";

    static ReportData recorded() throws IOException {
        try (InputStream in = ReportPageTest.class.getResourceAsStream("report-quick.json")) {
            return ReportJson.read(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    static Document parse(String page) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(page.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void pageFromRecordedRunsIsWellFormedXmlWithOneSeriesPerEngine() throws Exception {
        ReportData data = recorded();
        Document doc = parse(ReportPage.render(data, ReportJson.write(data)));

        List<Element> sections = elements(doc.getElementsByTagNameNS(XHTML, "section"));
        assertEquals(2, sections.size());
        List<Element> plots = elements(doc.getElementsByTagNameNS(SVG, "svg"));
        assertEquals(8, plots.size(), "IOPS, p50, p99 and p99.9 for buffered 4k and O_DIRECT 4k");
        assertEquals(List.of("IOPS", "p50 latency", "p99 latency", "p99.9 latency", "IOPS", "p50 latency", "p99 latency", "p99.9 latency"),
                plots.stream().map(p -> p.getAttribute("aria-label")).toList());
        for (int i = 0; i < 8; i++) {
            List<String> expected = i < 4 ? List.of("jring", "fio io_uring", "fio psync (QD1)")
                    : List.of("jring", "fio io_uring", "fio libaio", "fio psync (QD1)");
            Element plot = plots.get(i);
            assertEquals(expected, byClass(plot, "g", "series").stream().map(g -> g.getAttribute("data-label")).toList());
            assertEquals(expected, texts(byClass(plot, "g", "legend").getFirst()));
            assertEquals(List.of("1", "8", "32"), texts(byClass(plot, "g", "x-ticks").getFirst()));
            assertTrue(texts(byClass(plot, "g", "y-ticks").getFirst()).size() >= 3, "y ticks");
            assertEquals("iodepth (log scale)", byClass(plot, "text", "x-label").getFirst().getTextContent());
        }
        Element iops = plots.getFirst();
        Element jring = series(iops, "jring");
        assertEquals(3, ((Element) jring.getElementsByTagNameNS(SVG, "polyline").item(0)).getAttribute("points").split(" ").length);
        assertEquals(3, jring.getElementsByTagNameNS(SVG, "circle").getLength());
        assertEquals("jring at QD8: 202.2K IOPS", jring.getElementsByTagNameNS(SVG, "title").item(1).getTextContent());
        assertEquals(1, byClass(series(iops, "fio psync (QD1)"), "line", "reference").size(), "a sync engine is a line across");
        assertEquals("0", texts(byClass(iops, "g", "y-ticks").getFirst()).getFirst(), "IOPS start from 0");

        // The raw JSON is embedded and reads back as the same runs.
        String raw = doc.getElementsByTagNameNS(XHTML, "pre").item(0).getTextContent();
        assertEquals(data.results().size(), ReportJson.read(raw).results().size());
    }

    @Test
    void aFailedRunLeavesAGapInItsLineAndANote() throws Exception {
        ReportData data = recorded();
        List<SweepResult> runs = new ArrayList<>();
        for (SweepResult r : data.results()) {
            boolean drop = r.point().engine() == ReportEngine.JRING && !r.point().direct() && r.point().depth() == 8;
            runs.add(drop ? SweepResult.failed(r.point(), "exit 1, no JSON output: cannot lay out /x/y: No such file or directory") : r);
        }
        Map<String, String> about = new LinkedHashMap<>(data.about());
        about.put("markup", "<b>&amp; \"quoted\" 'single'</b>");
        String page = ReportPage.render(new ReportData(about, List.of("fio engines skipped: no working fio at 'fio'."), runs), "{}");
        Document doc = parse(page);
        Element jring = series(elements(doc.getElementsByTagNameNS(SVG, "svg")).getFirst(), "jring");
        assertEquals(2, jring.getElementsByTagNameNS(SVG, "polyline").getLength(), "QD1 and QD32, apart");
        assertEquals(2, jring.getElementsByTagNameNS(SVG, "circle").getLength());
        List<String> notes = elements(doc.getElementsByTagNameNS(XHTML, "li")).stream().map(Element::getTextContent).toList();
        assertTrue(notes.contains("fio engines skipped: no working fio at 'fio'."), notes::toString);
        assertTrue(notes.contains("buffered 4k QD8 jring: exit 1, no JSON output: cannot lay out /x/y: No such file or directory"), notes::toString);
        assertTrue(page.contains("<td title=\"exit 1, no JSON output"), "the table says which run failed and why");
        assertTrue(doc.getDocumentElement().getTextContent().contains("<b>&amp; \"quoted\" 'single'</b>"), "text is escaped, not markup");
    }

    @Test
    void aPageWithoutRunsIsStillAPage() throws Exception {
        Document doc = parse(ReportPage.render(new ReportData(Map.of("rw", "randread"), List.of("nothing ran"), List.of()), "{}"));
        assertEquals(0, doc.getElementsByTagNameNS(SVG, "svg").getLength());
        assertTrue(doc.getDocumentElement().getTextContent().contains("No runs."));
    }

    @Test
    void aPlotWithoutFiguresSaysSo() throws Exception {
        String svg = new LinePlot("p99 latency", LinePlot.Quantity.LATENCY, new int[] {1, 8})
                .render(List.of(new LinePlot.Series("jring", "#d62728", false, new double[] {1, 8}, new double[] {Double.NaN, Double.NaN})));
        Document doc = parse(svg);
        assertEquals(0, doc.getElementsByTagNameNS(SVG, "polyline").getLength());
        assertTrue(doc.getDocumentElement().getTextContent().contains("no figures"));
    }

    private static Element series(Element plot, String label) {
        return byClass(plot, "g", "series").stream().filter(g -> g.getAttribute("data-label").equals(label)).findFirst().orElseThrow();
    }

    private static List<Element> byClass(Element root, String tag, String cls) {
        return elements(root.getElementsByTagNameNS(SVG, tag)).stream().filter(e -> e.getAttribute("class").equals(cls)).toList();
    }

    private static List<String> texts(Element g) {
        return elements(g.getElementsByTagNameNS(SVG, "text")).stream().map(Element::getTextContent).toList();
    }

    private static List<Element> elements(NodeList nodes) {
        List<Element> list = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            list.add((Element) nodes.item(i));
        }
        return list;
    }
}
