package fplab;

import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;

/**
 * The JVM's memory apart from the reference's own, measured as the lab's Go
 * cells measure theirs (ladder/rung/rss_linux.go): the harness is what is
 * resident when the path opens (the JVM with its heap settings, its classes
 * and the program's set-up; -Xms commits the heap, but only the pages
 * touched are resident), the path is what the client or the job adds from
 * then to the last record.
 *
 * <p>{@link #mark} is called just before the path opens: it reads the
 * resident set (VmRSS, the harness) and the peak so far (VmHWM) from
 * /proc/self/status, then resets the kernel's peak to the current resident
 * set by writing "5" to /proc/self/clear_refs, so that the peak read at
 * the end ({@link #end}) is the path's own rather than the start-up's. The
 * process's peak is the larger of the two peaks.
 *
 * <p>Not getrusage's ru_maxrss, which the Go side used to read: Linux folds
 * the peak of the memory image execve replaces into it, and a child the Go
 * runtime starts shares its parent's memory until then, so a JVM's
 * ru_maxrss was at least its parent's resident set.
 *
 * <p>No collection runs before the mark (the Go side frees its heap there):
 * a System.gc() would add a full collection to the program's start-up that
 * the deployed client does not do, and would not lower the resident set
 * much anyway, since G1 does not return the heap below -Xms and keeps the
 * pages it touched.
 */
final class Rss {
    private static final String STATUS = "/proc/self/status";
    private static final String CLEAR_REFS = "/proc/self/clear_refs";

    private final long harnessKb;
    private final long peakBeforeKb;

    private Rss(long harnessKb, long peakBeforeKb) {
        this.harnessKb = harnessKb;
        this.peakBeforeKb = peakBeforeKb;
    }

    /** The memory at the end of the read, KiB (the result line's rss_* fields). */
    static final class Split {
        final long harnessKb; // VmRSS at the mark
        final long pathPeakKb; // VmHWM since the mark less harnessKb, not below 0
        final long peakKb; // the process's peak: VmHWM before the mark and since

        Split(long harnessKb, long pathPeakKb, long peakKb) {
            this.harnessKb = harnessKb;
            this.pathPeakKb = pathPeakKb;
            this.peakKb = peakKb;
        }

        /** The three fields, "rss_harness_kb=H rss_path_peak_kb=P rss_peak_kb=K". */
        String fields() {
            return "rss_harness_kb=" + harnessKb + " rss_path_peak_kb=" + pathPeakKb + " rss_peak_kb=" + peakKb;
        }
    }

    /**
     * Marks the path's open: the harness's resident set and the peak so
     * far read, then the kernel's peak reset. Fails (Common.Fail) when
     * either file cannot be read or written: a figure without the reset
     * would be the start-up's peak, not the path's.
     */
    static Rss mark() {
        long[] s = read();
        try (FileOutputStream out = new FileOutputStream(CLEAR_REFS)) {
            out.write("5".getBytes(StandardCharsets.US_ASCII));
        } catch (IOException e) {
            throw new Common.Fail("reset the peak resident set: " + CLEAR_REFS + ": " + e.getMessage());
        }
        return new Rss(s[0], s[1]);
    }

    /** The split at the read's end: the peak since the mark read now. */
    Split end() {
        long hwm = read()[1];
        return new Split(harnessKb, Math.max(hwm - harnessKb, 0), Math.max(peakBeforeKb, hwm));
    }

    /**
     * VmRSS and VmHWM of this process, KiB. Read as Latin-1, which decodes
     * any byte: the Name line holds the thread's name as the kernel keeps it.
     */
    private static long[] read() {
        long rss = -1, hwm = -1;
        try {
            for (String line : Files.readAllLines(Paths.get(STATUS), StandardCharsets.ISO_8859_1)) {
                boolean isRss = line.startsWith("VmRSS:");
                if (!isRss && !line.startsWith("VmHWM:")) {
                    continue;
                }
                String[] f = line.substring(6).trim().split("\\s+");
                if (f.length != 2 || !f[1].equals("kB")) {
                    throw new Common.Fail("resident set: " + STATUS + " line \"" + line + "\"");
                }
                long n;
                try {
                    n = Long.parseLong(f[0]);
                } catch (NumberFormatException e) {
                    throw new Common.Fail("resident set: " + STATUS + " line \"" + line + "\"");
                }
                if (isRss) {
                    rss = n;
                } else {
                    hwm = n;
                }
            }
        } catch (IOException e) {
            throw new Common.Fail("resident set: " + STATUS + ": " + e.getMessage());
        }
        if (rss < 0 || hwm < 0) {
            throw new Common.Fail("resident set: no VmRSS and VmHWM in " + STATUS);
        }
        return new long[] {rss, hwm};
    }
}
