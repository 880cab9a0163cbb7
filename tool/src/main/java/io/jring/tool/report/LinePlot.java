package io.jring.tool.report;

import java.util.List;
import java.util.function.DoubleFunction;

/**
 * One chart of a report as inline SVG: a quantity against iodepth (log2 axis, a tick at
 * each depth swept), one line per engine, a marker with a tooltip at each run, and a legend.
 * A sync engine, run at depth 1 only, is a dashed line across the whole axis at its value.
 * Runs without figures (NaN) leave a gap in their line.
 */
final class LinePlot {

    /** What the y axis shows: IOPS from 0 on a linear axis, latencies on a log axis. */
    enum Quantity {
        IOPS(false, Ticks::si, Figures::si, " IOPS"),
        LATENCY(true, Ticks::time, ns -> Latency.time(Math.round(ns)), "");

        final boolean log;
        final DoubleFunction<String> tick;
        final DoubleFunction<String> value;
        final String unit;

        Quantity(boolean log, DoubleFunction<String> tick, DoubleFunction<String> value, String unit) {
            this.log = log;
            this.tick = tick;
            this.value = value;
            this.unit = unit;
        }
    }

    /** One engine's line: {@code ys[i]} measured at depth {@code xs[i]}; a reference line has one point. */
    record Series(String label, String color, boolean reference, double[] xs, double[] ys) {}

    static final int WIDTH = 560;
    static final int HEIGHT = 300;
    private static final double LEFT = 66;
    private static final double RIGHT = 412;
    private static final double TOP = 30;
    private static final double BOTTOM = 250;

    private final String title;
    private final Quantity quantity;
    private final int[] depths;

    /** {@code depths}: the x ticks, ascending. */
    LinePlot(String title, Quantity quantity, int[] depths) {
        this.title = title;
        this.quantity = quantity;
        this.depths = depths.length == 0 ? new int[] {1} : depths;
    }

    String render(List<Series> series) {
        double[] yTicks = yTicks(series);
        StringBuilder s = new StringBuilder(4096);
        s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" width=\"").append(WIDTH)
                .append("\" height=\"").append(HEIGHT).append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(HEIGHT)
                .append("\" role=\"img\" aria-label=\"").append(Markup.text(title)).append("\" font-family=\"sans-serif\" font-size=\"12\">\n");
        s.append("<text class=\"title\" x=\"").append(Markup.px((LEFT + RIGHT) / 2)).append("\" y=\"18\" text-anchor=\"middle\" font-size=\"14\" font-weight=\"bold\">")
                .append(Markup.text(title)).append("</text>\n");
        axes(s, yTicks);
        boolean any = false;
        for (Series one : series) {
            any |= line(s, one, yTicks);
        }
        if (!any) {
            s.append("<text x=\"").append(Markup.px((LEFT + RIGHT) / 2)).append("\" y=\"").append(Markup.px((TOP + BOTTOM) / 2))
                    .append("\" text-anchor=\"middle\" fill=\"#888\">no figures</text>\n");
        }
        legend(s, series);
        return s.append("</svg>\n").toString();
    }

    private double[] yTicks(List<Series> series) {
        double min = Double.POSITIVE_INFINITY;
        double max = 0;
        for (Series one : series) {
            for (double y : one.ys()) {
                if (Double.isFinite(y) && y > 0) {
                    min = Math.min(min, y);
                    max = Math.max(max, y);
                }
            }
        }
        return quantity.log ? Ticks.log(min, max) : Ticks.linear(max);
    }

    private void axes(StringBuilder s, double[] yTicks) {
        s.append("<g class=\"axes\" stroke=\"#ccc\" stroke-width=\"1\">\n");
        for (int d : depths) {
            s.append("<line x1=\"").append(Markup.px(x(d))).append("\" y1=\"").append(Markup.px(TOP)).append("\" x2=\"")
                    .append(Markup.px(x(d))).append("\" y2=\"").append(Markup.px(BOTTOM)).append("\"/>\n");
        }
        for (double t : yTicks) {
            s.append("<line x1=\"").append(Markup.px(LEFT)).append("\" y1=\"").append(Markup.px(y(t, yTicks))).append("\" x2=\"")
                    .append(Markup.px(RIGHT)).append("\" y2=\"").append(Markup.px(y(t, yTicks))).append("\"/>\n");
        }
        s.append("<rect x=\"").append(Markup.px(LEFT)).append("\" y=\"").append(Markup.px(TOP)).append("\" width=\"")
                .append(Markup.px(RIGHT - LEFT)).append("\" height=\"").append(Markup.px(BOTTOM - TOP))
                .append("\" fill=\"none\" stroke=\"#444\"/>\n</g>\n");
        s.append("<g class=\"x-ticks\" text-anchor=\"middle\">\n");
        for (int d : depths) {
            s.append("<text x=\"").append(Markup.px(x(d))).append("\" y=\"").append(Markup.px(BOTTOM + 16)).append("\">")
                    .append(d).append("</text>\n");
        }
        s.append("</g>\n<g class=\"y-ticks\" text-anchor=\"end\">\n");
        for (double t : yTicks) {
            s.append("<text x=\"").append(Markup.px(LEFT - 6)).append("\" y=\"").append(Markup.px(y(t, yTicks) + 4)).append("\">")
                    .append(Markup.text(quantity.tick.apply(t))).append("</text>\n");
        }
        s.append("</g>\n");
        s.append("<text class=\"x-label\" x=\"").append(Markup.px((LEFT + RIGHT) / 2)).append("\" y=\"").append(Markup.px(BOTTOM + 36))
                .append("\" text-anchor=\"middle\">iodepth (log scale)</text>\n");
        double mid = (TOP + BOTTOM) / 2;
        s.append("<text class=\"y-label\" x=\"14\" y=\"").append(Markup.px(mid)).append("\" text-anchor=\"middle\" transform=\"rotate(-90 14 ")
                .append(Markup.px(mid)).append(")\">").append(quantity.log ? "latency (log scale)" : "IOPS").append("</text>\n");
    }

    /** Draws one series; false when it has no finite point. */
    private boolean line(StringBuilder s, Series one, double[] yTicks) {
        s.append("<g class=\"series\" data-label=\"").append(Markup.text(one.label())).append("\" stroke=\"").append(one.color())
                .append("\" fill=\"").append(one.color()).append("\">\n");
        boolean any = false;
        StringBuilder points = new StringBuilder();
        for (int i = 0; i <= one.xs().length; i++) {
            boolean finite = i < one.xs().length && Double.isFinite(one.ys()[i]) && one.ys()[i] > 0;
            if (finite) {
                points.append(points.isEmpty() ? "" : " ").append(Markup.px(x(one.xs()[i]))).append(',')
                        .append(Markup.px(y(one.ys()[i], yTicks)));
                any = true;
            } else if (!points.isEmpty()) {
                s.append("<polyline fill=\"none\" stroke-width=\"2\" points=\"").append(points).append("\"/>\n");
                points.setLength(0);
            }
        }
        if (one.reference() && any) {
            double yv = y(one.ys()[0], yTicks);
            s.append("<line class=\"reference\" x1=\"").append(Markup.px(LEFT)).append("\" y1=\"").append(Markup.px(yv))
                    .append("\" x2=\"").append(Markup.px(RIGHT)).append("\" y2=\"").append(Markup.px(yv))
                    .append("\" stroke-width=\"2\" stroke-dasharray=\"6 4\"/>\n");
        }
        for (int i = 0; i < one.xs().length; i++) {
            double v = one.ys()[i];
            if (Double.isFinite(v) && v > 0) {
                s.append("<circle cx=\"").append(Markup.px(x(one.xs()[i]))).append("\" cy=\"").append(Markup.px(y(v, yTicks)))
                        .append("\" r=\"3.5\"><title>").append(Markup.text(one.label() + " at QD" + (long) one.xs()[i] + ": "
                                + quantity.value.apply(v) + quantity.unit)).append("</title></circle>\n");
            }
        }
        s.append("</g>\n");
        return any;
    }

    private void legend(StringBuilder s, List<Series> series) {
        s.append("<g class=\"legend\">\n");
        double ly = TOP + 8;
        for (Series one : series) {
            s.append("<line x1=\"").append(Markup.px(RIGHT + 14)).append("\" y1=\"").append(Markup.px(ly)).append("\" x2=\"")
                    .append(Markup.px(RIGHT + 38)).append("\" y2=\"").append(Markup.px(ly)).append("\" stroke=\"").append(one.color())
                    .append("\" stroke-width=\"2\"").append(one.reference() ? " stroke-dasharray=\"6 4\"" : "").append("/>\n");
            s.append("<text x=\"").append(Markup.px(RIGHT + 44)).append("\" y=\"").append(Markup.px(ly + 4)).append("\">")
                    .append(Markup.text(one.label())).append("</text>\n");
            ly += 20;
        }
        s.append("</g>\n");
    }

    private double x(double depth) {
        double lo = log2(depths[0]);
        double hi = log2(depths[depths.length - 1]);
        double pad = 14;
        if (hi <= lo) {
            return (LEFT + RIGHT) / 2;
        }
        return LEFT + pad + (RIGHT - LEFT - 2 * pad) * (log2(depth) - lo) / (hi - lo);
    }

    private double y(double v, double[] ticks) {
        double lo = ticks[0];
        double hi = ticks[ticks.length - 1];
        double t = quantity.log ? (Math.log10(v) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo)) : (v - lo) / (hi - lo);
        return BOTTOM - (BOTTOM - TOP) * t;
    }

    private static double log2(double v) {
        return Math.log(v) / Math.log(2);
    }
}
