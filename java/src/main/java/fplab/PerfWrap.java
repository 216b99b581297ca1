package fplab;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * Kafka's own ConsumerPerformance (path=java-perf) run in this JVM between
 * the marks of Rss, so that its cells have the memory split every other
 * cell has. The tool prints totals only and cannot report the JVM's
 * resident sets itself, and the Go side cannot read them from outside
 * without sampling, which misses peaks. The rung runs
 *
 * <pre>
 * java &lt;the tool's JVM flags&gt; -cp &lt;distribution&gt;/libs/*:fplab-java.jar fplab.PerfWrap &lt;the tool's arguments&gt;
 * </pre>
 *
 * with the distribution's jars first, so that the tool, kafka-clients and
 * the logging are the distribution's own and only this class and Rss come
 * from the jar (which bundles no kafka-tools, hence the reflection below).
 * After the tool's own output it prints one line:
 *
 * <pre>
 * FPLAB-RSS rss_harness_kb=H rss_path_peak_kb=P rss_peak_kb=K
 * </pre>
 *
 * the fields of the result line (Common). The path opens at the call of
 * the tool's main: its option parsing, logging set-up, consumer, group join
 * and read are the path's. ConsumerPerformance.main (Kafka 4.1.1) returns
 * when it is done, a read that timed out included (it prints a WARNING line
 * the rung refuses), and exits 1 itself (Exit.exit) after printing any
 * exception, so no line follows a failed run. A failure of this class's own
 * prints {@code fplab: perf: <reason>} on stderr and exits 1.
 */
public final class PerfWrap {
    private PerfWrap() {}

    static final String PROGRAM = "perf";
    static final String TOOL = "org.apache.kafka.tools.ConsumerPerformance";

    public static void main(String[] args) {
        try {
            // Found, not initialized: the tool's static set-up (its
            // logger) is the path's, like the rest of its main.
            Method main;
            try {
                main = Class.forName(TOOL, false, PerfWrap.class.getClassLoader()).getMethod("main", String[].class);
            } catch (ClassNotFoundException | NoSuchMethodException e) {
                throw new Common.Fail(TOOL + ".main not on the class path (the Kafka distribution's libs/* go first): " + e);
            }
            Rss rss = Rss.mark();
            try {
                main.invoke(null, (Object) args);
            } catch (InvocationTargetException e) {
                throw new Common.Fail(TOOL + ": " + Common.rootCause(e.getCause()));
            }
            Rss.Split mem = rss.end();
            System.out.flush();
            System.out.println("FPLAB-RSS " + mem.fields());
            System.out.flush();
        } catch (Common.Fail f) {
            Common.die(PROGRAM, f.getMessage());
        } catch (Throwable t) {
            Common.die(PROGRAM, Common.rootCause(t));
        }
        System.exit(0);
    }
}
