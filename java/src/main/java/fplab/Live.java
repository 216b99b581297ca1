package fplab;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.zip.CRC32C;

/**
 * What both programs share in live mode ({@code --live true}): the lab's Go
 * side made the topic fresh, the program reads every partition from offset
 * 0 while the lab's producer writes it, and stops once it has read
 * {@code --records}. The lines on stdout (ladder/rung/jvmref/liveproto.go):
 *
 * <pre>
 * FPLAB-READY                                    once the program can receive
 * FPLAB-R recv_epoch_ns partition first last     one per hand-over of a range
 * FPLAB ...                                      the result line (Common)
 * FPLAB-LIVE cpu_ns=C sums=COUNT:CRC,...         C: process CPU from READY to the last record
 * </pre>
 *
 * A range is consecutive offsets of one partition handed to the program's
 * user at once; its time is epoch ns from {@link Instant#now()} (the host
 * clock the Go side reads too, microseconds on Linux). The sums are, per
 * partition in partition order, the record count and a CRC-32C chained over
 * the values in offset order: each value's length as 4 big-endian bytes
 * (0xFFFFFFFF for null), then its bytes (the Go side's rung.SumValue).
 */
final class Live {
    private Live() {}

    /** Now as epoch nanoseconds. */
    static long epochNanos() {
        Instant t = Instant.now();
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    /** The process's CPU time (user+sys, all threads) in ns, -1 unknown. */
    static long processCpuNanos() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean) {
            return ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime();
        }
        return -1;
    }

    /** The records the producer writes to partition p (record i to i % partitions). */
    static long expected(long records, int partitions, int p) {
        return records / partitions + (p < records % partitions ? 1 : 0);
    }

    /**
     * The one writer of the live lines, shared by every thread: lines are
     * appended under its lock to a buffer, written when it holds 32 KiB and
     * by a daemon thread every 5 ms, so that reporting costs a write(2) per
     * few milliseconds, not per line.
     */
    static final class Out {
        private static final Out INSTANCE = new Out();
        private final OutputStream os = new FileOutputStream(FileDescriptor.out);
        private final StringBuilder sb = new StringBuilder(1 << 16);
        private IOException failed;

        private Out() {
            Thread t = new Thread(() -> {
                while (true) {
                    try {
                        Thread.sleep(5);
                    } catch (InterruptedException e) {
                        return;
                    }
                    flush();
                }
            }, "fplab-live-out");
            t.setDaemon(true);
            t.start();
        }

        static Out get() {
            return INSTANCE;
        }

        /** A range line. */
        synchronized void range(long epochNs, int partition, long first, long last) {
            sb.append("FPLAB-R ").append(epochNs).append(' ').append(partition).append(' ')
                    .append(first).append(' ').append(last).append('\n');
            if (sb.length() >= 1 << 15) {
                flush();
            }
        }

        /** A line written at once (READY and the result). */
        synchronized void now(String line) {
            sb.append(line).append('\n');
            flush();
        }

        synchronized void flush() {
            if (sb.length() == 0 || failed != null) {
                return;
            }
            try {
                os.write(sb.toString().getBytes(StandardCharsets.US_ASCII));
                os.flush();
            } catch (IOException e) {
                failed = e; // the Go side is gone; the program ends on its timeout or is killed
            }
            sb.setLength(0);
        }
    }

    /** Per partition: the count and the chained checksum of the values read. */
    static final class Sums {
        final long[] count;
        final CRC32C[] crc;
        private final byte[] len = new byte[4];

        Sums(int partitions) {
            count = new long[partitions];
            crc = new CRC32C[partitions];
            for (int p = 0; p < partitions; p++) {
                crc[p] = new CRC32C();
            }
        }

        void add(int p, byte[] v) {
            int n = v == null ? -1 : v.length;
            len[0] = (byte) (n >>> 24);
            len[1] = (byte) (n >>> 16);
            len[2] = (byte) (n >>> 8);
            len[3] = (byte) n;
            CRC32C c = crc[p];
            c.update(len, 0, 4);
            if (v != null) {
                c.update(v, 0, v.length);
            }
            count[p]++;
        }
    }

    /** The FPLAB-LIVE line. */
    static String line(long cpuNs, long[] count, long[] crc) {
        StringBuilder sb = new StringBuilder("FPLAB-LIVE cpu_ns=").append(Math.max(cpuNs, 0)).append(" sums=");
        for (int p = 0; p < count.length; p++) {
            if (p > 0) {
                sb.append(',');
            }
            sb.append(count[p]).append(':').append(crc[p]);
        }
        return sb.toString();
    }
}
