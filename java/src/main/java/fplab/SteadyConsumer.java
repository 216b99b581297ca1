package fplab;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A steady-state Java consumer: Kafka's own client (kafka-clients, the
 * classic consumer) reading a bounded range of a topic the way the Go paths
 * do, with the JIT warmed before the measured window.
 *
 * <ul>
 *   <li>Explicit {@code assign()} of partitions 0..P-1, no consumer group,
 *       nothing committed.</li>
 *   <li>The range is [beginning, end) per partition, both captured once at
 *       start ({@code beginningOffsets}, {@code endOffsets}; with
 *       read_committed the end is the last stable offset). A partition is
 *       done when the consumer's position reaches its end (so transaction
 *       markers and aborted records at the tail end it too); records at or
 *       past the end are never counted, and a done partition is paused.</li>
 *   <li>Warm-up: the same consumer first reads --warmup-records records (the
 *       whole range by default) and discards them, then seeks every
 *       partition back to its beginning. Same instance rather than a second
 *       one, so the measured pass starts with everything a long-running
 *       consumer has: JIT-compiled fetch and parse paths, open connections,
 *       metadata and the broker's fetch session; a second instance would
 *       redo connection and metadata set-up inside nothing we measure, and
 *       would leave the first one's buffers on the heap. The seek drops what
 *       the warm-up had buffered.</li>
 *   <li>Window: from the return of the first poll of the measured pass that
 *       held records to the end of processing of the poll that held the last
 *       record of the range (System.nanoTime), like the Go paths' first
 *       record to last batch. Start-up: JVM start to the first record the
 *       program received (the warm-up's first, or the measured pass's when
 *       there is no warm-up).</li>
 * </ul>
 *
 * <p>The count of records read in the measured pass must equal --records;
 * anything else, or the --timeout-ms deadline passing, prints one line on
 * stderr and exits 1.
 *
 * <p>With {@code --live true} it reads a fresh topic while the lab's
 * producer writes it instead (runLive, Live): no warm-up pass, every
 * partition from offset 0 until --records are read, each poll's records
 * reported as ranges at the time the poll returned.
 */
public final class SteadyConsumer {
    private SteadyConsumer() {}

    static final String PROGRAM = "steady";

    /*
     * Fetch and poll sizes, against librdkafka's (the Go fast, shallow and
     * rowwise paths run librdkafka with its defaults; docs/kafka.md, "Java
     * references"):
     *
     *   fetch.min.bytes 1, fetch.max.wait.ms 500: librdkafka's fetch.min.bytes
     *     1 and fetch.wait.max.ms 500; the Java defaults already match.
     *   fetch.max.bytes 52428800 (50 MiB per fetch response): librdkafka's
     *     fetch.max.bytes default, and Java's.
     *   max.partition.fetch.bytes 1048576 (1 MiB per partition per fetch):
     *     librdkafka's max.partition.fetch.bytes default, and Java's.
     *     librdkafka additionally keeps fetching ahead until
     *     queued.max.messages.kbytes (65536 KiB) or queued.min.messages
     *     (100000) are queued; the classic Java consumer has no such queue:
     *     it holds at most one response per broker and sends the next fetch
     *     for a partition once its buffered records are handed out. Per
     *     request the two clients therefore ask for the same bytes; the read
     *     ahead is the clients' design difference, not a setting.
     *   max.poll.records (--max-poll-records, default 100000; Java's default
     *     500): librdkafka's consumer hands the application everything queued
     *     (the fast path drains the whole backlog per cgo crossing, franz-go's
     *     PollFetches everything buffered). 100000 is librdkafka's
     *     queued.min.messages, the per-partition count it prefetches to, and
     *     more than a whole buffered response holds (6 partitions x 1 MiB of
     *     ~145 B corpus records is ~43000), so a poll hands out everything
     *     buffered instead of 500-record slices. docs/kafka.md compares 500,
     *     10000 and 100000.
     *   receive.buffer.bytes -1 (the OS default, autotuned): librdkafka's
     *     socket.receive.buffer.bytes is 0, the OS default; Java's 65536 would
     *     pin a 64 KiB socket buffer that librdkafka does not have.
     *   check.crcs: the cell's crc value (--check-crcs), as for every path.
     *   isolation.level read_committed: as the Go paths (pinned there).
     */
    static final int FETCH_MIN_BYTES = 1;
    static final int FETCH_MAX_WAIT_MS = 500;
    static final int FETCH_MAX_BYTES = 52428800;
    static final int MAX_PARTITION_FETCH_BYTES = 1048576;
    static final int DEFAULT_MAX_POLL_RECORDS = 100000;
    static final int RECEIVE_BUFFER_BYTES = -1;

    /** Keys the program sets; --consumer-config may not set them. */
    static final Set<String> FIXED = new HashSet<>(Arrays.asList(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, ConsumerConfig.GROUP_ID_CONFIG,
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
            ConsumerConfig.ISOLATION_LEVEL_CONFIG, ConsumerConfig.CHECK_CRCS_CONFIG,
            ConsumerConfig.FETCH_MIN_BYTES_CONFIG, ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG,
            ConsumerConfig.FETCH_MAX_BYTES_CONFIG, ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG,
            ConsumerConfig.MAX_POLL_RECORDS_CONFIG, ConsumerConfig.RECEIVE_BUFFER_CONFIG,
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
            ConsumerConfig.ENABLE_METRICS_PUSH_CONFIG, ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG,
            ConsumerConfig.CLIENT_ID_CONFIG));

    static final Set<String> FLAGS = new HashSet<>(Arrays.asList(
            "bootstrap", "topic", "partitions", "records", "warmup-records", "consumer-config",
            "timeout-ms", "check-crcs", "max-poll-records", "live"));

    public static void main(String[] args) {
        long jvmStart = Common.jvmStartNanos();
        try {
            System.out.println(run(args, jvmStart));
            System.out.flush();
        } catch (Common.Fail f) {
            Common.die(PROGRAM, f.getMessage());
        } catch (Throwable t) {
            Common.die(PROGRAM, Common.rootCause(t));
        }
        System.exit(0);
    }

    /** The client properties the measured read uses (see the comment above). */
    static Properties clientProps(String bootstrap, boolean checkCrcs, int maxPollRecords, Properties extra) {
        Properties p = new Properties();
        p.putAll(extra);
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "fplab-steady");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        p.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        p.put(ConsumerConfig.ENABLE_METRICS_PUSH_CONFIG, "false");
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.CHECK_CRCS_CONFIG, Boolean.toString(checkCrcs));
        p.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, Integer.toString(FETCH_MIN_BYTES));
        p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, Integer.toString(FETCH_MAX_WAIT_MS));
        p.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, Integer.toString(FETCH_MAX_BYTES));
        p.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, Integer.toString(MAX_PARTITION_FETCH_BYTES));
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.toString(maxPollRecords));
        p.put(ConsumerConfig.RECEIVE_BUFFER_CONFIG, Integer.toString(RECEIVE_BUFFER_BYTES));
        return p;
    }

    /** The settings that shape the read, for the result line's conf field. */
    static Map<String, String> confOf(Properties p, String... keys) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String k : keys) {
            m.put(k, p.getProperty(k));
        }
        return m;
    }

    static final String[] CONF_KEYS = {
        ConsumerConfig.FETCH_MIN_BYTES_CONFIG, ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG,
        ConsumerConfig.FETCH_MAX_BYTES_CONFIG, ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG,
        ConsumerConfig.MAX_POLL_RECORDS_CONFIG, ConsumerConfig.RECEIVE_BUFFER_CONFIG,
        ConsumerConfig.CHECK_CRCS_CONFIG, ConsumerConfig.ISOLATION_LEVEL_CONFIG,
    };

    static String run(String[] args, long jvmStart) {
        Map<String, String> a = Common.parseArgs(PROGRAM, args, FLAGS);
        String bootstrap = Common.required(a, "bootstrap");
        String topic = Common.required(a, "topic");
        int partitions = (int) Common.longArg(a, "partitions", 0, 1);
        if (a.get("partitions") == null) {
            throw new Common.Fail("--partitions is required");
        }
        if (a.get("records") == null) {
            throw new Common.Fail("--records is required");
        }
        long records = Common.longArg(a, "records", 0, 0);
        long warmup = Common.longArg(a, "warmup-records", records, 0);
        long timeoutMs = Common.longArg(a, "timeout-ms", 120_000, 1);
        boolean crcs = Common.boolArg(a, "check-crcs", true);
        int maxPoll = (int) Common.longArg(a, "max-poll-records", DEFAULT_MAX_POLL_RECORDS, 1);
        Properties extra = Common.loadConfig(a.get("consumer-config"), FIXED);
        long deadline = System.nanoTime() + timeoutMs * 1_000_000L;

        Properties props = clientProps(bootstrap, crcs, maxPoll, extra);
        if (Common.boolArg(a, "live", false)) {
            if (a.get("warmup-records") != null && warmup != 0) {
                throw new Common.Fail("--live reads without a warm-up pass (--warmup-records 0)");
            }
            return runLive(props, topic, partitions, records, deadline, timeoutMs, jvmStart);
        }
        // The path opens here: the consumer, its warm-up pass and the
        // measured pass are the reference's work; the JVM and the
        // arguments read so far are the harness (Rss).
        Rss rss = Rss.mark();
        try (KafkaConsumer<byte[], byte[]> c =
                     new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<PartitionInfo> infos = c.partitionsFor(topic, remaining(deadline, timeoutMs));
            if (infos == null || infos.isEmpty()) {
                throw new Common.Fail("topic " + topic + " does not exist");
            }
            if (infos.size() != partitions) {
                throw new Common.Fail("topic " + topic + " has " + infos.size() + " partitions, --partitions says " + partitions);
            }
            List<TopicPartition> tps = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                tps.add(new TopicPartition(topic, p));
            }
            c.assign(tps);
            Map<TopicPartition, Long> begins = c.beginningOffsets(tps, remaining(deadline, timeoutMs));
            Map<TopicPartition, Long> ends = c.endOffsets(tps, remaining(deadline, timeoutMs));
            long[] begin = new long[partitions], end = new long[partitions];
            for (int p = 0; p < partitions; p++) {
                begin[p] = begins.get(tps.get(p));
                end[p] = ends.get(tps.get(p));
            }
            Pass warm = null;
            if (warmup > 0) {
                rewind(c, tps, begin);
                warm = read(c, tps, end, warmup, deadline, timeoutMs, records);
            }
            rewind(c, tps, begin);
            Pass m = read(c, tps, end, Long.MAX_VALUE, deadline, timeoutMs, records);
            Rss.Split mem = rss.end();
            if (m.count != records) {
                throw new Common.Fail("read " + m.count + " records in [beginning, end) of " + topic + ", expected " + records);
            }
            long startup = 0; // no record at all: an empty range
            if (warm != null && warm.count > 0) {
                startup = warm.first - jvmStart;
            } else if (m.count > 0) {
                startup = m.first - jvmStart;
            }
            return Common.resultLine(PROGRAM, m.count, m.bytes, m.span(), startup,
                    warm == null ? 0 : warm.count, warm == null ? 0 : warm.span(), mem,
                    confOf(props, CONF_KEYS));
        }
    }

    static Duration remaining(long deadline, long timeoutMs) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw new Common.Fail("timeout (" + timeoutMs + " ms) passed before the read finished");
        }
        return Duration.ofNanos(left);
    }

    /** Seeks every partition to its beginning and resumes it. */
    static void rewind(KafkaConsumer<byte[], byte[]> c, List<TopicPartition> tps, long[] begin) {
        for (int p = 0; p < tps.size(); p++) {
            c.seek(tps.get(p), begin[p]);
        }
        c.resume(tps);
    }

    /**
     * The live read (Live): partitions 0..P-1 assigned and positioned at
     * offset 0 of the fresh topic, one poll issued, FPLAB-READY; then polls
     * until every partition's last expected offset was read. Each poll that
     * returned records reports, per partition, its runs of consecutive
     * offsets as ranges, all with the time poll returned: that is when
     * kafka-clients hands the poll's records to the user, as a Go path
     * hands over a batch. No partition is paused: a partition read to its
     * end gets nothing more from the producer, and a record past its end
     * would be reported, for the Go side to refuse.
     */
    static String runLive(Properties props, String topic, int partitions, long records, long deadline,
                          long timeoutMs, long jvmStart) {
        Live.Out out = Live.Out.get();
        // The path opens here, as in the bounded read (run): the consumer
        // and everything it reads are the path's, the JVM and the live
        // output's writer the harness's (Rss).
        Rss rss = Rss.mark();
        try (KafkaConsumer<byte[], byte[]> c =
                     new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            // The Go side made the topic just now: wait for its metadata.
            while (true) {
                List<PartitionInfo> infos = c.partitionsFor(topic, remaining(deadline, timeoutMs));
                if (infos != null && infos.size() == partitions) {
                    break;
                }
                if (infos != null && infos.size() > partitions) {
                    throw new Common.Fail("topic " + topic + " has " + infos.size() + " partitions, --partitions says " + partitions);
                }
                remaining(deadline, timeoutMs);
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    throw new Common.Fail("interrupted");
                }
            }
            List<TopicPartition> tps = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                tps.add(new TopicPartition(topic, p));
            }
            c.assign(tps);
            long[] end = new long[partitions]; // the offset past the last the producer writes
            long[] next = new long[partitions]; // the next offset to read, for the ranges
            int left = 0;
            for (int p = 0; p < partitions; p++) {
                c.seek(tps.get(p), 0);
                end[p] = Live.expected(records, partitions, p);
                if (end[p] > 0) {
                    left++;
                }
            }
            Live.Sums sums = new Live.Sums(partitions);
            Pass r = new Pass();
            // The first poll joins nothing (no group): it fetches metadata,
            // positions and sends the first fetches; on the empty topic it
            // returns nothing, and anything it did return is handled as any.
            left -= handle(c.poll(Duration.ofMillis(100)), out, sums, next, end, r);
            long readyNs = System.nanoTime();
            long cpu0 = Live.processCpuNanos();
            out.now("FPLAB-READY");
            while (left > 0) {
                long wait = Math.min(remaining(deadline, timeoutMs).toMillis(), 100);
                left -= handle(c.poll(Duration.ofMillis(Math.max(wait, 1))), out, sums, next, end, r);
            }
            long cpu1 = Live.processCpuNanos();
            Rss.Split mem = rss.end();
            if (r.count != records) {
                throw new Common.Fail("read " + r.count + " records of the live topic " + topic + ", expected " + records);
            }
            long[] crc = new long[partitions];
            for (int p = 0; p < partitions; p++) {
                crc[p] = sums.crc[p].getValue();
            }
            Map<String, String> conf = confOf(props, CONF_KEYS);
            conf.put("live", "true");
            out.flush();
            return Common.resultLine(PROGRAM, r.count, r.bytes, r.span(), readyNs - jvmStart, 0, 0, mem, conf)
                    + "\n" + Live.line(cpu0 < 0 || cpu1 < 0 ? 0 : cpu1 - cpu0, sums.count, crc);
        }
    }

    /**
     * Reports one poll's records (Live): their ranges at the time poll
     * returned, their values into the sums; returns how many partitions it
     * read to their end.
     */
    static int handle(ConsumerRecords<byte[], byte[]> rs, Live.Out out, Live.Sums sums, long[] next, long[] end, Pass r) {
        if (rs.isEmpty()) {
            return 0;
        }
        long at = Live.epochNanos();
        long now = System.nanoTime();
        if (r.count == 0) {
            r.first = now;
        }
        r.last = now;
        int done = 0;
        for (TopicPartition tp : rs.partitions()) {
            int p = tp.partition();
            long first = -1, last = -1;
            for (ConsumerRecord<byte[], byte[]> rec : rs.records(tp)) {
                long o = rec.offset();
                if (first >= 0 && o != last + 1) {
                    out.range(at, p, first, last);
                    first = -1;
                }
                if (first < 0) {
                    first = o;
                }
                last = o;
                byte[] v = rec.value();
                sums.add(p, v);
                r.count++;
                if (v != null) {
                    r.bytes += v.length;
                }
            }
            if (first >= 0) {
                out.range(at, p, first, last);
                if (next[p] < end[p] && last + 1 >= end[p]) {
                    done++;
                }
                next[p] = Math.max(next[p], last + 1);
            }
        }
        return done;
    }

    /** One pass over the range. */
    static final class Pass {
        long count, bytes, first, last;

        /** First to last record, 0 without records. */
        long span() {
            return count > 0 ? last - first : 0;
        }
    }

    /**
     * Reads from the current positions until every partition's position is
     * at its end, or until at least limit records were read (the warm-up).
     * Only records below each partition's end count.
     */
    static Pass read(KafkaConsumer<byte[], byte[]> c, List<TopicPartition> tps, long[] end, long limit,
                     long deadline, long timeoutMs, long expected) {
        int n = tps.size();
        boolean[] done = new boolean[n];
        int left = n;
        List<TopicPartition> finished = new ArrayList<>();
        for (int p = 0; p < n; p++) {
            if (c.position(tps.get(p)) >= end[p]) {
                done[p] = true;
                left--;
                finished.add(tps.get(p));
            }
        }
        c.pause(finished);
        Pass r = new Pass();
        while (left > 0 && r.count < limit) {
            long wait = Math.min(remaining(deadline, timeoutMs).toMillis(), 100);
            ConsumerRecords<byte[], byte[]> rs;
            try {
                rs = c.poll(Duration.ofMillis(Math.max(wait, 1)));
            } catch (RuntimeException e) {
                if (System.nanoTime() - deadline >= 0) {
                    throw new Common.Fail("timeout (" + timeoutMs + " ms) passed after " + r.count + " of " + expected + " records");
                }
                throw e;
            }
            if (!rs.isEmpty()) {
                long now = System.nanoTime();
                if (r.count == 0) {
                    r.first = now;
                }
                long got = 0, bytes = 0;
                for (TopicPartition tp : rs.partitions()) {
                    long e = end[tp.partition()];
                    for (ConsumerRecord<byte[], byte[]> rec : rs.records(tp)) {
                        if (rec.offset() >= e) {
                            break;
                        }
                        got++;
                        byte[] v = rec.value();
                        if (v != null) {
                            bytes += v.length;
                        }
                    }
                }
                if (got > 0) {
                    r.count += got;
                    r.bytes += bytes;
                    r.last = System.nanoTime();
                }
            } else if (System.nanoTime() - deadline >= 0) {
                throw new Common.Fail("timeout (" + timeoutMs + " ms) passed after " + r.count + " of " + expected + " records");
            }
            finished.clear();
            for (int p = 0; p < n; p++) {
                if (!done[p] && c.position(tps.get(p)) >= end[p]) {
                    done[p] = true;
                    left--;
                    finished.add(tps.get(p));
                }
            }
            if (!finished.isEmpty()) {
                c.pause(finished);
            }
        }
        return r;
    }
}
