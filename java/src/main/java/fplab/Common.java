package fplab;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * What both programs share: argument parsing, the JVM start instant, the
 * one result line and the one error line.
 *
 * <p>The result line, on stdout, alone on its line:
 *
 * <pre>
 * FPLAB program=steady records=N bytes=B window_ns=W startup_ns=S warmup_records=R warmup_ns=U
 *       jvm=NAME/VERSION gc=COLLECTOR,... heap_max=BYTES
 *       rss_harness_kb=H rss_path_peak_kb=P rss_peak_kb=K conf=KEY:VALUE,...
 * </pre>
 *
 * (one line; fields separated by one space, values never contain spaces:
 * spaces in the JVM and collector names become '_'). The rss_ fields are
 * the JVM's memory, KiB, split where the program's client or job opens
 * (Rss): what was resident then, the peak since less that, and the
 * process's peak. Every failure prints
 * exactly one line {@code fplab: <program>: <reason>} on stderr and exits 1.
 */
final class Common {
    private Common() {}

    /** A failure that ends the program with one line on stderr. */
    static final class Fail extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Fail(String msg) {
            super(msg, null, false, false);
        }
    }

    /** Prints {@code fplab: <program>: <msg>} on stderr and exits 1. */
    static void die(String program, String msg) {
        System.out.flush();
        System.err.println("fplab: " + program + ": " + oneLine(msg));
        System.err.flush();
        Runtime.getRuntime().halt(1);
    }

    static String oneLine(String s) {
        return s == null ? "(no message)" : s.replaceAll("\\s*[\\r\\n]+\\s*", " | ").trim();
    }

    /** The innermost cause's class and message (Flink nests them deeply). */
    static String rootCause(Throwable t) {
        Throwable r = t;
        while (r.getCause() != null && r.getCause() != r) {
            r = r.getCause();
        }
        String m = r.getMessage();
        String top = t.getMessage();
        if (r == t) {
            return r.getClass().getSimpleName() + ": " + m;
        }
        return (top == null ? t.getClass().getSimpleName() : top) + " (cause: " + r.getClass().getSimpleName() + ": " + m + ")";
    }

    /**
     * The value System.nanoTime() had when the JVM started, to the JVM's
     * millisecond start stamp: start-up figures count JVM start, class
     * loading and client start, as the Go side's start-up counts process
     * start to the first record.
     */
    static long jvmStartNanos() {
        long nowNs = System.nanoTime();
        long nowMs = System.currentTimeMillis();
        long startMs = ManagementFactory.getRuntimeMXBean().getStartTime();
        return nowNs - (nowMs - startMs) * 1_000_000L;
    }

    /** --key value (or --key=value) arguments, each key once, all known. */
    static Map<String, String> parseArgs(String program, String[] args, Set<String> known) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("--")) {
                throw new Fail("unexpected argument \"" + a + "\"");
            }
            String k = a.substring(2), v;
            int eq = k.indexOf('=');
            if (eq >= 0) {
                v = k.substring(eq + 1);
                k = k.substring(0, eq);
            } else {
                if (i + 1 >= args.length) {
                    throw new Fail("--" + k + " needs a value");
                }
                v = args[++i];
            }
            if (!known.contains(k)) {
                throw new Fail("unknown flag --" + k + " (known: --" + String.join(", --", new java.util.TreeSet<>(known)) + ")");
            }
            if (m.put(k, v) != null) {
                throw new Fail("--" + k + " given twice");
            }
        }
        return m;
    }

    static String required(Map<String, String> a, String k) {
        String v = a.get(k);
        if (v == null || v.isEmpty()) {
            throw new Fail("--" + k + " is required");
        }
        return v;
    }

    static long longArg(Map<String, String> a, String k, long def, long min) {
        String v = a.get(k);
        long n;
        if (v == null) {
            n = def;
        } else {
            try {
                n = Long.parseLong(v);
            } catch (NumberFormatException e) {
                throw new Fail("--" + k + " \"" + v + "\" is not an integer");
            }
        }
        if (n < min) {
            throw new Fail("--" + k + " must be >= " + min + ", got " + n);
        }
        return n;
    }

    static boolean boolArg(Map<String, String> a, String k, boolean def) {
        String v = a.get(k);
        if (v == null) {
            return def;
        }
        switch (v) {
            case "true": case "on":
                return true;
            case "false": case "off":
                return false;
            default:
                throw new Fail("--" + k + " \"" + v + "\" is not true/false (or on/off)");
        }
    }

    /**
     * Loads extra client properties (e.g. SASL) from file; none of them may
     * set a key in fixed, which the program sets itself for a fair and
     * correct read.
     */
    static Properties loadConfig(String file, Set<String> fixed) {
        Properties p = new Properties();
        if (file == null || file.isEmpty()) {
            return p;
        }
        try (InputStream in = new FileInputStream(file)) {
            p.load(in);
        } catch (IOException e) {
            throw new Fail("--consumer-config: " + e.getMessage());
        }
        for (String k : p.stringPropertyNames()) {
            if (fixed.contains(k)) {
                throw new Fail("--consumer-config " + file + " sets " + k + ", which the program sets itself");
            }
        }
        return p;
    }

    /** The result line (see the class comment). */
    static String resultLine(String program, long records, long bytes, long windowNs, long startupNs,
                             long warmupRecords, long warmupNs, Rss.Split mem, Map<String, String> conf) {
        List<String> gcs = new ArrayList<>();
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            gcs.add(token(gc.getName()));
        }
        List<String> kv = new ArrayList<>();
        for (Map.Entry<String, String> e : conf.entrySet()) {
            kv.add(token(e.getKey()) + ":" + token(e.getValue()));
        }
        Map<String, String> f = new LinkedHashMap<>();
        f.put("program", program);
        f.put("records", Long.toString(records));
        f.put("bytes", Long.toString(bytes));
        f.put("window_ns", Long.toString(windowNs));
        f.put("startup_ns", Long.toString(startupNs));
        f.put("warmup_records", Long.toString(warmupRecords));
        f.put("warmup_ns", Long.toString(warmupNs));
        f.put("jvm", token(System.getProperty("java.vm.name") + "/" + System.getProperty("java.vm.version")));
        f.put("gc", String.join(",", gcs));
        f.put("heap_max", Long.toString(Runtime.getRuntime().maxMemory()));
        f.put("rss_harness_kb", Long.toString(mem.harnessKb));
        f.put("rss_path_peak_kb", Long.toString(mem.pathPeakKb));
        f.put("rss_peak_kb", Long.toString(mem.peakKb));
        f.put("conf", String.join(",", kv));
        StringBuilder sb = new StringBuilder("FPLAB");
        for (Map.Entry<String, String> e : f.entrySet()) {
            sb.append(' ').append(e.getKey()).append('=').append(e.getValue());
        }
        return sb.toString();
    }

    /** s with whitespace as '_' and the field separators ',' ':' '=' as '_'. */
    static String token(String s) {
        if (s == null || s.isEmpty()) {
            return "-";
        }
        return s.replaceAll("[\\s,:=]", "_");
    }
}
