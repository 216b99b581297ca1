package fplab;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.formats.avro.AvroRowDataDeserializationSchema;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.csv.CsvRowDataDeserializationSchema;
import org.apache.flink.formats.json.JsonParserRowDataDeserializationSchema;
import org.apache.flink.formats.protobuf.PbFormatConfig;
import org.apache.flink.formats.protobuf.PbFormatOptions;
import org.apache.flink.formats.protobuf.deserialize.PbRowDataDeserializationSchema;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.runtime.client.JobExecutionException;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.runtime.minicluster.RpcServiceSharing;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.traces.Span;
import org.apache.flink.traces.reporter.TraceReporter;
import org.apache.flink.traces.reporter.TraceReporterFactory;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

import fplab.stock.BidOuterClass;

/**
 * Apache Flink's own KafkaSource on a local MiniCluster, reading a topic
 * from its earliest offsets to the latest offsets captured when the job
 * starts (a bounded job), decoding each value with the format's stock
 * Flink deserializer, into a sink that counts records.
 *
 * <ul>
 *   <li>Formats: raw (byte[], Kafka's ByteArrayDeserializer), json
 *       (flink-json's JsonParserRowDataDeserializationSchema, what the json
 *       format factory builds by default, into RowData), avro (flink-avro's
 *       AvroRowDataDeserializationSchema, binary encoding, into RowData).
 *       The bid schema: auction, bidder, price BIGINT; channel, url STRING;
 *       date_time TIMESTAMP(3); extra STRING. The lab's JSON writes date_time
 *       as epoch milliseconds (a JSON integer), which Flink's JSON timestamp
 *       parser does not read (it parses SQL or ISO-8601 text), so json
 *       decodes it as BIGINT and converts it to TimestampData afterwards,
 *       what a Flink SQL table would do with TO_TIMESTAMP_LTZ(date_time, 3).
 *       Avro needs no such step: TIMESTAMP(3) is Avro's timestamp-millis
 *       long, which is what the lab writes (fields NOT NULL, so no unions).
 *       protobuf (flink-protobuf's PbRowDataDeserializationSchema, what the
 *       protobuf format factory builds, into RowData) decodes with the
 *       message class protoc generates at build time from the lab's own
 *       workloads/stock/bid.proto (java/pom.xml), fplab.stock.BidOuterClass.Bid;
 *       date_time is an int64 of epoch milliseconds there, so it is read as
 *       BIGINT and converted as for json. csv (flink-csv's
 *       CsvRowDataDeserializationSchema, what the csv format factory builds
 *       with its defaults: ',' delimiter, '"' quote with doubled quotes
 *       inside, no escape character, no header, no comments) reads the lab's
 *       RFC 4180 lines (workloads/csv.go); date_time is decimal epoch
 *       milliseconds, which Flink's CSV timestamp parser (SQL text) does not
 *       read, so csv converts it as json does.</li>
 *   <li>Parallelism: --parallelism, default the partition count. KafkaSource
 *       makes one split per partition; parallelism = partitions is how
 *       Flink Kafka jobs are sized (each source subtask owns one partition,
 *       none idle), so the default is the deployment people run. On a
 *       machine with fewer cores than partitions it oversubscribes (each
 *       subtask is a task thread plus a Kafka fetcher thread), which is why
 *       it is an argument: the lab measures both.</li>
 *   <li>Sink: a Sink V2 writer per subtask counting records (and the first
 *       and last record's System.nanoTime). At end of input each subtask
 *       adds its figures to JVM-wide totals (the MiniCluster runs in this
 *       JVM, and the job's classes come from the application class loader);
 *       the last subtask to finish fails the job unless the total equals
 *       --records. The main thread checks the same total after the job.</li>
 *   <li>Window: from the first record any sink subtask received to the last
 *       record any received. Source and sink are chained (same parallelism,
 *       forward), so the sink's write runs in the source's task thread right
 *       after the record is deserialized and emitted: the sink's timestamps
 *       are the source's emit times. Start-up: JVM start to the first record
 *       (MiniCluster start, job submission and scheduling, split
 *       enumeration, the first fetch), reported separately.</li>
 *   <li>Cluster: one MiniCluster per JVM, started once before the first
 *       job (as Flink's local executor starts one: a TaskManager with a
 *       slot per subtask); every run of the JVM is a job submitted to it.
 *       --warmup-runs N runs the same bounded job N times first on that
 *       cluster, so the measured run has a warm JIT and a warm cluster, as
 *       a job on a long-running session cluster has (path=flink-warm);
 *       default 0: a job on a cluster started for it, cold (path=flink).
 *       Each warm-up run's count and window go to stderr.</li>
 *   <li>Object reuse is on (pipeline.object-reuse; --object-reuse): without
 *       it Flink deep-copies every record between chained operators, a cost
 *       of Flink's safety default that a tuned pipeline turns off when, as
 *       here, no operator keeps a record.</li>
 *   <li>Checkpoints: off by default (none of the figures above include
 *       any). --checkpoint-ms N checkpoints every N ms
 *       (execution.checkpointing.interval, exactly-once, aligned), with the
 *       hashmap state backend and the jobmanager checkpoint storage
 *       (JobManagerCheckpointStorage: snapshots kept in the JobManager's
 *       memory, nothing written to disk). Flink still checkpoints after
 *       some subtasks finished, and a bounded job with checkpoints waits
 *       for a final checkpoint once every source is done, so the job ends
 *       up to N ms after its last record; the window (first to last
 *       record) is unaffected. A second line then follows the result line:
 *       <pre>
 * FPLAB-CKPT count=C p50_ns=P max_ns=M failed=F
 *       </pre>
 *       C checkpoints of the measured run completed; P and M are the median
 *       (nearest rank: the ceil(C/2)-th smallest) and largest end-to-end
 *       duration of those C, in ns (0 when C is 0); F checkpoints failed
 *       (in the runs tried, all declined by subtasks closing at end of
 *       input, which Flink tolerates: the job goes on).
 *       The durations are Flink's own checkpoint statistics: each
 *       checkpoint's trigger to its last acknowledgement, the end-to-end
 *       duration the web UI shows, which Flink's checkpoint stats tracker
 *       reports as a "Checkpoint" trace span to the trace reporters
 *       (CheckpointSpans below, configured on the MiniCluster). Flink keeps
 *       these in milliseconds, so every figure is a multiple of
 *       1000000.</li>
 *   <li>--live true reads a fresh topic while the lab's producer writes it
 *       (runLive, Live): the same job with an unbounded source from the
 *       earliest offsets, cancelled once --records are read; no warm-up
 *       runs, no checkpoints.</li>
 *   <li>--start (Start) runs the job as the oracle of a start-up case:
 *       its starting offsets initializer and group as the case gives
 *       them, --records what the case must read, no warm-up runs, no
 *       checkpoints, and a FPLAB-START line after the result saying where
 *       each partition was read from.</li>
 * </ul>
 */
public final class FlinkBounded {
    private FlinkBounded() {}

    static final String PROGRAM = "flink";

    static final Set<String> FLAGS = new HashSet<>(Arrays.asList(
            "bootstrap", "topic", "partitions", "records", "format", "parallelism", "consumer-config",
            "timeout-ms", "check-crcs", "max-poll-records", "warmup-runs", "object-reuse", "checkpoint-ms", "live",
            "start", "start-ms", "group", "reset"));

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

    static String run(String[] args, long jvmStart) throws Exception {
        Map<String, String> a = Common.parseArgs(PROGRAM, args, FLAGS);
        String bootstrap = Common.required(a, "bootstrap");
        String topic = Common.required(a, "topic");
        if (a.get("partitions") == null) {
            throw new Common.Fail("--partitions is required");
        }
        if (a.get("records") == null) {
            throw new Common.Fail("--records is required");
        }
        int partitions = (int) Common.longArg(a, "partitions", 0, 1);
        long records = Common.longArg(a, "records", 0, 0);
        String format = a.getOrDefault("format", "raw");
        int parallelism = (int) Common.longArg(a, "parallelism", partitions, 1);
        long timeoutMs = Common.longArg(a, "timeout-ms", 300_000, 1);
        boolean crcs = Common.boolArg(a, "check-crcs", true);
        int maxPoll = (int) Common.longArg(a, "max-poll-records", SteadyConsumer.DEFAULT_MAX_POLL_RECORDS, 1);
        long warmupRuns = Common.longArg(a, "warmup-runs", 0, 0);
        boolean objectReuse = Common.boolArg(a, "object-reuse", true);
        long checkpointMs = Common.longArg(a, "checkpoint-ms", 0, 0);
        Properties extra = Common.loadConfig(a.get("consumer-config"), SteadyConsumer.FIXED);
        decoding(format); // reject an unknown format before any start-up
        Start start = Start.of(a);
        long deadline = System.nanoTime() + timeoutMs * 1_000_000L;

        // The same client settings as SteadyConsumer (see there), so the two
        // differ by Flink's machinery, not by fetch sizes.
        Properties props = SteadyConsumer.clientProps(bootstrap, crcs, maxPoll, extra);
        props.remove(ConsumerConfig.CLIENT_ID_CONFIG); // KafkaSource sets client.id per reader
        props.remove(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG); // the starting offsets initializer sets it
        props.put("commit.offsets.on.checkpoint", "false");

        if (Common.boolArg(a, "live", false)) {
            if (warmupRuns != 0 || checkpointMs != 0 || start != null) {
                throw new Common.Fail("--live reads from the earliest offsets, without warm-up runs and without checkpoints");
            }
            return runLive(props, topic, partitions, records, format, parallelism, objectReuse, deadline, timeoutMs,
                    jvmStart);
        }

        if (start != null && (warmupRuns != 0 || checkpointMs != 0)) {
            throw new Common.Fail("--start reads once, without warm-up runs and without checkpoints");
        }
        long warmRecords = 0, warmNs = 0, startup = 0;
        boolean seen = false;
        Totals m = null;
        // The path opens here, before the first job's environment is made:
        // each run's MiniCluster (started by its job's execution), its
        // KafkaSource and the job are the reference's work, warm-up runs
        // included as steady's warm-up pass is; the JVM, the arguments and
        // the format's deserializer checked above are the harness (Rss).
        Rss rss = Rss.mark();
        Configuration clusterConf = jobConf(parallelism, objectReuse, checkpointMs);
        // One MiniCluster for every run of this JVM: the warm-up runs and
        // the measured one are jobs submitted to the same JobManager and
        // TaskManager, as jobs of a long-running session cluster are; its
        // start is paid once, before the first job.
        Shared.spansSeen.set(false);
        try (MiniCluster cluster = startCluster(clusterConf, parallelism)) {
            for (long run = 0; run <= warmupRuns; run++) {
                Totals t = runJob(cluster, props, topic, partitions, records, format, parallelism, objectReuse,
                        checkpointMs, start, deadline, timeoutMs);
                if (!seen && t.records > 0) {
                    seen = true;
                    startup = t.first - jvmStart;
                }
                if (run < warmupRuns) {
                    warmRecords += t.records;
                    warmNs += t.records > 0 ? t.last - t.first : 0;
                    System.err.printf("fplab-flink: warm-up run %d: %d records in %d ms%n", run + 1, t.records,
                            (t.last - t.first) / 1_000_000L);
                } else {
                    m = t;
                }
            }
        }
        Rss.Split mem = rss.end();
        Map<String, String> conf = SteadyConsumer.confOf(props, SteadyConsumer.CONF_KEYS);
        conf.put("format", format);
        conf.put("parallelism", Integer.toString(parallelism));
        conf.put("object-reuse", Boolean.toString(objectReuse));
        conf.put("runtime-mode", "STREAMING");
        conf.put("flink", org.apache.flink.runtime.util.EnvironmentInformation.getVersion());
        if (checkpointMs > 0) {
            conf.put("checkpoint-ms", Long.toString(checkpointMs));
            conf.put("checkpoint-storage", CHECKPOINT_STORAGE);
            conf.put("state-backend", STATE_BACKEND);
        }
        String line = Common.resultLine(PROGRAM, m.records, m.bytes, m.records > 0 ? m.last - m.first : 0,
                startup, warmRecords, warmNs, mem, conf);
        if (checkpointMs > 0) {
            line += "\n" + checkpointLine(m.checkpointsMs, m.checkpointsFailed);
        }
        if (start != null) {
            line += "\n" + Start.line(m.firstOffsets, m.counts);
        }
        return line;
    }

    /**
     * The live read (Live): the same job as the bounded one, its KafkaSource
     * unbounded from the earliest offsets of the fresh topic (no group
     * commits, no checkpoints). FPLAB-READY once the job is RUNNING and every
     * source subtask's deserializer is open (the readers exist; their splits
     * follow within the producer's lead of at least 1 s). Each record is
     * reported by the deserializer right after it emitted the record, that
     * is once the chained sink (the operator after the source, same
     * parallelism, same thread) has taken it: consecutive records of one
     * partition are one range until the partition changes or 1 ms has passed
     * since the range's first record, reported with its last record's time,
     * so an earlier record's hand-over is overstated by less than 1 ms. Once
     * every partition's last expected offset was read the job is cancelled.
     */
    static String runLive(Properties props, String topic, int partitions, long records, String format,
                          int parallelism, boolean objectReuse, long deadline, long timeoutMs, long jvmStart)
            throws Exception {
        Shared.reset();
        LiveShared.reset(partitions, parallelism);
        // The path opens here, as in the bounded read (run): the job's
        // environment, its MiniCluster and the job are the path's (Rss).
        Rss rss = Rss.mark();
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        conf.set(PipelineOptions.OBJECT_REUSE, objectReuse);
        conf.set(TaskManagerOptions.NUM_TASK_SLOTS, parallelism);
        conf.set(CoreOptions.DEFAULT_PARALLELISM, parallelism);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(parallelism, conf);
        env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
        Set<TopicPartition> tps = new HashSet<>();
        for (int p = 0; p < partitions; p++) {
            tps.add(new TopicPartition(topic, p));
        }
        Decoding<?> dec = decoding(format);
        dec.livePartitions = partitions;
        dec.liveRecords = records;
        KafkaSource<?> source = buildLive(dec, props, tps);
        sinkInto(env, source, records, parallelism);

        Live.Out out = Live.Out.get();
        JobClient job = env.executeAsync("fplab-flink-live-" + topic);
        CompletableFuture<?> result = job.getJobExecutionResult();
        try {
            await(CompletableFuture.anyOf(LiveShared.opened, result), deadline, timeoutMs, "the job was ready");
            if (!LiveShared.opened.isDone()) {
                result.get();
                throw new Common.Fail("the live job ended before it was ready");
            }
            while (job.getJobStatus().get() != JobStatus.RUNNING) {
                if (result.isDone()) {
                    result.get();
                    throw new Common.Fail("the live job ended before it was ready");
                }
                SteadyConsumer.remaining(deadline, timeoutMs);
                Thread.sleep(10);
            }
            long readyNs = System.nanoTime();
            long cpu0 = Live.processCpuNanos();
            out.now("FPLAB-READY");
            await(CompletableFuture.anyOf(LiveShared.done, result), deadline, timeoutMs, "every record was read");
            long cpu1 = Live.processCpuNanos();
            Rss.Split mem = rss.end();
            if (!LiveShared.done.isDone()) {
                result.get();
                throw new Common.Fail("the live job ended before it read every record");
            }
            long[] count = new long[partitions], crc = new long[partitions];
            long n = 0, bytes = 0, first = Long.MAX_VALUE, last = Long.MIN_VALUE;
            for (Decoding<?> d : Shared.decoders) {
                bytes += d.bytes;
                if (d.sums == null || d.firstAt == 0) {
                    continue;
                }
                first = Math.min(first, d.firstAt);
                last = Math.max(last, d.lastAt);
                for (int p = 0; p < partitions; p++) {
                    if (d.sums.count[p] == 0) {
                        continue;
                    }
                    if (count[p] != 0) {
                        throw new Common.Fail("partition " + p + " was read by two source subtasks");
                    }
                    count[p] = d.sums.count[p];
                    crc[p] = d.sums.crc[p].getValue();
                    n += count[p];
                }
            }
            if (n != records) {
                throw new Common.Fail("read " + n + " records of the live topic " + topic + ", expected " + records);
            }
            out.flush();
            Map<String, String> c = SteadyConsumer.confOf(props, SteadyConsumer.CONF_KEYS);
            c.put("format", format);
            c.put("parallelism", Integer.toString(parallelism));
            c.put("object-reuse", Boolean.toString(objectReuse));
            c.put("runtime-mode", "STREAMING");
            c.put("flink", org.apache.flink.runtime.util.EnvironmentInformation.getVersion());
            c.put("live", "true");
            c.put("live-range-max-ms", "1");
            return Common.resultLine(PROGRAM, n, bytes, Math.max(last - first, 1), readyNs - jvmStart, 0, 0, mem, c)
                    + "\n" + Live.line(cpu0 < 0 || cpu1 < 0 ? 0 : cpu1 - cpu0, count, crc);
        } catch (ExecutionException e) {
            throw new Common.Fail("job failed: " + Common.rootCause(e));
        } finally {
            if (!result.isDone()) {
                try {
                    job.cancel().get(30, TimeUnit.SECONDS);
                } catch (Exception ignored) {
                    // exiting anyway
                }
            }
        }
    }

    /** Waits for f until the deadline, failing the program once it passes. */
    static void await(CompletableFuture<?> f, long deadline, long timeoutMs, String what) throws Exception {
        long left = deadline - System.nanoTime();
        try {
            if (left <= 0) {
                throw new TimeoutException();
            }
            f.get(left, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            long n = 0;
            for (Decoding<?> d : Shared.decoders) {
                n += d.liveCount;
            }
            throw new Common.Fail("timeout (" + timeoutMs + " ms) passed before " + what + " (about " + n + " records read)");
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static KafkaSource<?> buildLive(Decoding<?> dec, Properties props, Set<TopicPartition> tps) {
        return KafkaSource.builder()
                .setProperties(props)
                .setGroupId("fplab-flink-live-" + System.nanoTime())
                .setPartitions(tps)
                .setStartingOffsets(OffsetsInitializer.earliest())
                .setDeserializer((KafkaRecordDeserializationSchema) dec)
                .build();
    }

    /** JVM-wide state of the live job (the MiniCluster is in this JVM). */
    static final class LiveShared {
        static volatile CompletableFuture<Void> opened = new CompletableFuture<>();
        static volatile CompletableFuture<Void> done = new CompletableFuture<>();
        static final AtomicInteger partitionsLeft = new AtomicInteger();
        static volatile int parallelism;

        static void reset(int partitions, int par) {
            opened = new CompletableFuture<>();
            done = new CompletableFuture<>();
            parallelism = par;
            partitionsLeft.set(partitions);
        }

        /** A source subtask's deserializer opened. */
        static void opened() {
            if (Shared.decoders.size() >= parallelism) {
                opened.complete(null);
            }
        }

        /** A partition's last expected offset was read. */
        static void partitionDone() {
            if (partitionsLeft.decrementAndGet() == 0) {
                done.complete(null);
            }
        }
    }

    static final String CHECKPOINT_STORAGE = "jobmanager";
    static final String STATE_BACKEND = "hashmap";

    /** The FPLAB-CKPT line (see the class comment). */
    static String checkpointLine(List<Long> durationsMs, long failed) {
        List<Long> d = new ArrayList<>(durationsMs);
        Collections.sort(d);
        int n = d.size();
        long p50 = n == 0 ? 0 : d.get((n + 1) / 2 - 1) * 1_000_000L;
        long max = n == 0 ? 0 : d.get(n - 1) * 1_000_000L;
        return "FPLAB-CKPT count=" + n + " p50_ns=" + p50 + " max_ns=" + max + " failed=" + failed;
    }

    /** What one job run measured. */
    static final class Totals {
        long records, bytes, first, last;
        List<Long> checkpointsMs = List.of(); // completed checkpoints' end-to-end durations
        long checkpointsFailed;
        long[] firstOffsets, counts; // per partition, with --start (Start)
    }

    /**
     * The configuration of a bounded run's jobs and of the MiniCluster they
     * run on: no restarts, object reuse as asked, one slot per subtask,
     * and Flink's checkpoints (with the trace reporter keeping their
     * statistics) when checkpointMs is set.
     */
    static Configuration jobConf(int parallelism, boolean objectReuse, long checkpointMs) {
        Configuration conf = new Configuration();
        // A failed job fails the run: no restarts.
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        conf.set(PipelineOptions.OBJECT_REUSE, objectReuse);
        conf.set(TaskManagerOptions.NUM_TASK_SLOTS, parallelism);
        conf.set(CoreOptions.DEFAULT_PARALLELISM, parallelism);
        if (checkpointMs > 0) {
            conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(checkpointMs));
            conf.set(CheckpointingOptions.CHECKPOINT_STORAGE, CHECKPOINT_STORAGE);
            conf.set(StateBackendOptions.STATE_BACKEND, STATE_BACKEND);
            // Flink's checkpoint statistics, one span per checkpoint, to
            // CheckpointSpans (found through META-INF/services).
            conf.set(ConfigOptions.key("traces.reporter.fplab.factory.class").stringType().noDefaultValue(),
                    CheckpointSpans.class.getName());
        }
        return conf;
    }

    /**
     * A started MiniCluster as Flink's local executor makes one for a job
     * (one TaskManager with a slot per subtask, random ports, RPC services
     * shared), kept for every job of the run.
     */
    static MiniCluster startCluster(Configuration conf, int parallelism) throws Exception {
        Configuration c = new Configuration(conf);
        if (!c.contains(RestOptions.BIND_PORT)) {
            c.set(RestOptions.BIND_PORT, "0");
        }
        MiniCluster cluster = new MiniCluster(new MiniClusterConfiguration.Builder()
                .setConfiguration(c)
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(parallelism)
                .setRpcServiceSharing(RpcServiceSharing.SHARED)
                .build());
        cluster.start();
        return cluster;
    }

    static Totals runJob(MiniCluster cluster, Properties props, String topic, int partitions, long records,
                         String format, int parallelism, boolean objectReuse, long checkpointMs, Start start,
                         long deadline, long timeoutMs) throws Exception {
        Shared.reset();
        Configuration conf = jobConf(parallelism, objectReuse, checkpointMs);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(parallelism, conf);
        env.setRuntimeMode(RuntimeExecutionMode.STREAMING);

        Set<TopicPartition> tps = new HashSet<>();
        for (int p = 0; p < partitions; p++) {
            tps.add(new TopicPartition(topic, p));
        }
        Decoding<?> dec = decoding(format);
        if (start != null) {
            dec.splitPartitions = partitions;
        }
        KafkaSource<?> source = build(dec, props, tps, start);
        sinkInto(env, source, records, parallelism);

        StreamGraph streamGraph = env.getStreamGraph();
        streamGraph.setJobName("fplab-flink-" + topic);
        JobGraph graph = streamGraph.getJobGraph();
        JobID id = graph.getJobID();
        try {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new TimeoutException();
            }
            cluster.submitJob(graph).get(left, TimeUnit.NANOSECONDS);
            left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new TimeoutException();
            }
            JobResult result = cluster.requestJobResult(id).get(left, TimeUnit.NANOSECONDS);
            result.toJobExecutionResult(FlinkBounded.class.getClassLoader());
        } catch (TimeoutException e) {
            try {
                cluster.cancelJob(id).get(10, TimeUnit.SECONDS);
            } catch (Exception ignored) {
                // exiting anyway
            }
            throw new Common.Fail("timeout (" + timeoutMs + " ms) passed after " + Shared.records.sum() + " of " + records + " records");
        } catch (ExecutionException | JobExecutionException e) {
            throw new Common.Fail("job failed: " + Common.rootCause(e));
        }
        Totals t = new Totals();
        t.records = Shared.records.sum();
        t.first = Shared.first.get();
        t.last = Shared.last.get();
        for (Decoding<?> d : Shared.decoders) {
            t.bytes += d.bytes;
        }
        if (Shared.finished.get() != parallelism) {
            throw new Common.Fail(Shared.finished.get() + " of " + parallelism + " sink subtasks reported (the job's classes are not this JVM's?)");
        }
        if (t.records != records) {
            throw new Common.Fail("read " + t.records + " records, expected " + records);
        }
        if (start != null) {
            t.firstOffsets = new long[partitions];
            t.counts = new long[partitions];
            Arrays.fill(t.firstOffsets, -1);
            for (Decoding<?> d : Shared.decoders) {
                for (int p = 0; p < partitions; p++) {
                    if (d.counts[p] == 0) {
                        continue;
                    }
                    if (t.counts[p] != 0) {
                        throw new Common.Fail("partition " + p + " was read by two source subtasks");
                    }
                    t.counts[p] = d.counts[p];
                    t.firstOffsets[p] = d.firstOffsets[p];
                }
            }
        }
        if (checkpointMs > 0) {
            synchronized (Shared.checkpointsMs) {
                t.checkpointsMs = new ArrayList<>(Shared.checkpointsMs);
            }
            t.checkpointsFailed = Shared.checkpointsFailed.get();
            if (!Shared.spansSeen.get()) {
                throw new Common.Fail("--checkpoint-ms: the checkpoint trace reporter was not opened (not in META-INF/services?)");
            }
        }
        return t;
    }

    /**
     * A Flink trace reporter (and its factory) keeping the checkpoint
     * statistics Flink reports for each checkpoint as a "Checkpoint" span:
     * trigger to last acknowledgement, and its status. The MiniCluster runs
     * it in this JVM; it adds to the JVM-wide totals of the run.
     */
    public static final class CheckpointSpans implements TraceReporterFactory, TraceReporter {
        @Override
        public TraceReporter createTraceReporter(Properties properties) {
            return new CheckpointSpans();
        }

        @Override
        public void open(MetricConfig config) {
            Shared.spansSeen.set(true);
        }

        @Override
        public void close() {}

        @Override
        public void notifyOfAddedSpan(Span span) {
            Object status = span.getAttributes().get("checkpointStatus");
            if (!"Checkpoint".equals(span.getName()) || status == null) {
                return;
            }
            if ("COMPLETED".equals(status.toString())) {
                synchronized (Shared.checkpointsMs) {
                    Shared.checkpointsMs.add(span.getEndTsMillis() - span.getStartTsMillis());
                }
            } else if ("FAILED".equals(status.toString())) {
                Shared.checkpointsFailed.incrementAndGet();
            }
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static KafkaSource<?> build(Decoding<?> dec, Properties props, Set<TopicPartition> tps, Start start) {
        var b = KafkaSource.builder().setProperties(props);
        if (start == null) {
            b.setGroupId("fplab-flink-" + System.nanoTime());
        } else if (start.group != null) {
            b.setGroupId(start.group);
        }
        return b
                .setPartitions(tps)
                .setStartingOffsets(start == null ? OffsetsInitializer.earliest() : start.initializer())
                // Stopping offsets: the latest offsets, captured once by the
                // split enumerator when the job starts (the last stable
                // offsets under read_committed).
                .setBounded(OffsetsInitializer.latest())
                .setDeserializer((KafkaRecordDeserializationSchema) dec)
                .build();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static void sinkInto(StreamExecutionEnvironment env, KafkaSource<?> source, long records, int parallelism) {
        env.fromSource((KafkaSource) source, WatermarkStrategy.noWatermarks(), "kafka")
                .sinkTo(new CountingSink(records, parallelism))
                .name("count");
    }

    /** JVM-wide totals of one job run (the MiniCluster is in this JVM). */
    static final class Shared {
        static final LongAdder records = new LongAdder();
        static final AtomicLong first = new AtomicLong(Long.MAX_VALUE);
        static final AtomicLong last = new AtomicLong(Long.MIN_VALUE);
        static final AtomicInteger finished = new AtomicInteger();
        static final ConcurrentLinkedQueue<Decoding<?>> decoders = new ConcurrentLinkedQueue<>();
        static final List<Long> checkpointsMs = new ArrayList<>();
        static final AtomicLong checkpointsFailed = new AtomicLong();
        static final AtomicBoolean spansSeen = new AtomicBoolean();

        static void reset() {
            records.reset();
            first.set(Long.MAX_VALUE);
            last.set(Long.MIN_VALUE);
            finished.set(0);
            decoders.clear();
            synchronized (checkpointsMs) {
                checkpointsMs.clear();
            }
            checkpointsFailed.set(0);
        }
    }

    /** Counts records per subtask; the last subtask to end checks the total. */
    static final class CountingSink<T> implements Sink<T> {
        private static final long serialVersionUID = 1L;
        final long expected;
        final int parallelism;

        CountingSink(long expected, int parallelism) {
            this.expected = expected;
            this.parallelism = parallelism;
        }

        @Override
        public SinkWriter<T> createWriter(WriterInitContext context) {
            return new Writer<>(expected, parallelism);
        }
    }

    static final class Writer<T> implements SinkWriter<T> {
        final long expected;
        final int parallelism;
        long count, first, last;
        boolean reported;

        Writer(long expected, int parallelism) {
            this.expected = expected;
            this.parallelism = parallelism;
        }

        @Override
        public void write(T element, Context context) {
            long now = System.nanoTime();
            if (count++ == 0) {
                first = now;
            }
            last = now;
        }

        @Override
        public void flush(boolean endOfInput) throws IOException {
            if (endOfInput) {
                report();
            }
        }

        void report() throws IOException {
            if (reported) {
                return;
            }
            reported = true;
            Shared.records.add(count);
            if (count > 0) {
                Shared.first.accumulateAndGet(first, Math::min);
                Shared.last.accumulateAndGet(last, Math::max);
            }
            if (Shared.finished.incrementAndGet() == parallelism) {
                long total = Shared.records.sum();
                if (total != expected) {
                    throw new IOException("counting sink: " + total + " records, expected " + expected);
                }
            }
        }

        @Override
        public void close() {
            // figures are reported at end of input only: a cancelled or
            // failed job reports nothing
        }
    }

    /**
     * The bid schema as Flink rows; json, csv and protobuf read date_time as
     * BIGINT first. The column names are bid.proto's field names, which the
     * protobuf format matches the row's fields by.
     */
    static RowType bidType(boolean dateTimeAsBigint, boolean nullable) {
        LogicalType ts = dateTimeAsBigint ? new BigIntType(nullable) : new TimestampType(nullable, 3);
        // The row itself NOT NULL too for avro: a nullable row is an Avro
        // union [null, record], which the lab's bare records are not.
        return RowType.of(nullable,
                new LogicalType[] {
                    new BigIntType(nullable), new BigIntType(nullable), new BigIntType(nullable),
                    new VarCharType(nullable, VarCharType.MAX_LENGTH), new VarCharType(nullable, VarCharType.MAX_LENGTH),
                    ts, new VarCharType(nullable, VarCharType.MAX_LENGTH),
                },
                new String[] {"auction", "bidder", "price", "channel", "url", "date_time", "extra"});
    }

    static final int DATE_TIME = 5;

    static Decoding<?> decoding(String format) {
        switch (format) {
            case "raw":
                return new Decoding<byte[]>(null, PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO, false);
            case "json": {
                RowType wire = bidType(true, true);
                RowType out = bidType(false, true);
                // failOnMissingField: every column must be present, as the
                // Go decoder requires; parse errors fail the job.
                DeserializationSchema<RowData> inner = new JsonParserRowDataDeserializationSchema(
                        wire, InternalTypeInfo.of(wire), true, false, TimestampFormat.ISO_8601);
                return new Decoding<RowData>(inner, InternalTypeInfo.of(out), true);
            }
            case "avro": {
                RowType t = bidType(false, false);
                return new Decoding<RowData>(new AvroRowDataDeserializationSchema(t, InternalTypeInfo.of(t)),
                        InternalTypeInfo.of(t), false);
            }
            case "protobuf": {
                RowType wire = bidType(true, true);
                RowType out = bidType(false, true);
                // Parse errors fail the job (ignoreParseErrors false). proto3
                // scalars have no presence, so the format reads every field's
                // value, zero included, whatever read-default-values says.
                PbFormatConfig pb = new PbFormatConfig(BidOuterClass.Bid.class.getName(), false, false,
                        PbFormatOptions.WRITE_NULL_STRING_LITERAL.defaultValue());
                return new Decoding<RowData>(new PbRowDataDeserializationSchema(wire, InternalTypeInfo.of(wire), pb),
                        InternalTypeInfo.of(out), true);
            }
            case "csv": {
                RowType wire = bidType(true, true);
                RowType out = bidType(false, true);
                // The csv format factory's defaults, which are the lab's
                // dialect; parse errors and a wrong field count fail the job.
                DeserializationSchema<RowData> inner =
                        new CsvRowDataDeserializationSchema.Builder(wire, InternalTypeInfo.of(wire)).build();
                return new Decoding<RowData>(inner, InternalTypeInfo.of(out), true);
            }
            default:
                throw new Common.Fail("unknown --format \"" + format + "\" (want raw, json, avro, protobuf or csv)");
        }
    }

    /**
     * The record deserializer: the format's stock Flink schema on the value
     * (none for raw), and the value bytes counted for MB/s.
     */
    static final class Decoding<T> implements KafkaRecordDeserializationSchema<T> {
        private static final long serialVersionUID = 1L;
        final DeserializationSchema<T> inner;
        final TypeInformation<T> type;
        final boolean epochMillisDateTime;
        transient long bytes;
        transient Collector<T> out;
        transient FixingCollector fixer;

        // --start (Start): set on the job's copy before it is submitted; 0
        // partitions otherwise.
        int splitPartitions;
        transient long[] firstOffsets, counts;

        // Live (runLive): set on the job's copy before it is submitted; 0
        // partitions for a bounded job.
        int livePartitions;
        long liveRecords;
        transient Live.Sums sums;
        transient Live.Out liveOut;
        transient long liveCount, firstAt, lastAt;
        transient boolean rangeOpen;
        transient int rangePartition;
        transient long rangeFirst, rangeLast, rangeStartAt, rangeLastAt;

        Decoding(DeserializationSchema<T> inner, TypeInformation<T> type, boolean epochMillisDateTime) {
            this.inner = inner;
            this.type = type;
            this.epochMillisDateTime = epochMillisDateTime;
        }

        @Override
        public void open(DeserializationSchema.InitializationContext context) throws Exception {
            if (inner != null) {
                inner.open(context);
            }
            if (livePartitions > 0) {
                sums = new Live.Sums(livePartitions);
                liveOut = Live.Out.get();
            }
            if (splitPartitions > 0) {
                firstOffsets = new long[splitPartitions];
                counts = new long[splitPartitions];
            }
            Shared.decoders.add(this);
            if (livePartitions > 0) {
                LiveShared.opened();
            }
        }

        /**
         * Reports record (partition p, offset o) handed to the operator
         * after the source at epoch ns at (runLive): ranges of consecutive
         * offsets of one partition, closed when the partition or the run
         * changes, when 1 ms has passed since the range's first record, or
         * at the partition's last expected offset.
         */
        void live(int p, long o, byte[] v, long at) {
            sums.add(p, v);
            if (liveCount++ == 0) {
                firstAt = at;
            }
            lastAt = at;
            if (rangeOpen && (p != rangePartition || o != rangeLast + 1 || at - rangeStartAt >= 1_000_000L)) {
                liveOut.range(rangeLastAt, rangePartition, rangeFirst, rangeLast);
                rangeOpen = false;
            }
            if (!rangeOpen) {
                rangeOpen = true;
                rangePartition = p;
                rangeFirst = o;
                rangeStartAt = at;
            }
            rangeLast = o;
            rangeLastAt = at;
            if (o + 1 == Live.expected(liveRecords, livePartitions, p)) {
                liveOut.range(rangeLastAt, rangePartition, rangeFirst, rangeLast);
                rangeOpen = false;
                LiveShared.partitionDone();
            }
        }

        @Override
        @SuppressWarnings("unchecked")
        public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<T> collector) throws IOException {
            byte[] v = record.value();
            if (v == null) {
                throw new IOException("record at " + record.topic() + "/" + record.partition() + "@" + record.offset() + " has a null value");
            }
            bytes += v.length;
            if (inner == null) {
                collector.collect((T) v);
            } else if (!epochMillisDateTime) {
                inner.deserialize(v, collector);
            } else {
                if (fixer == null) {
                    fixer = new FixingCollector();
                }
                fixer.out = (Collector<RowData>) collector;
                inner.deserialize(v, (Collector<T>) fixer);
            }
            if (livePartitions > 0) {
                live(record.partition(), record.offset(), v, Live.epochNanos());
            }
            if (splitPartitions > 0 && counts[record.partition()]++ == 0) {
                firstOffsets[record.partition()] = record.offset();
            }
        }

        @Override
        public TypeInformation<T> getProducedType() {
            return type;
        }
    }

    /** Turns the json, csv or protobuf row's BIGINT date_time into TIMESTAMP(3). */
    static final class FixingCollector implements Collector<RowData> {
        Collector<RowData> out;

        @Override
        public void collect(RowData row) {
            GenericRowData g = (GenericRowData) row;
            Object ms = g.getField(DATE_TIME);
            if (ms != null) {
                g.setField(DATE_TIME, TimestampData.fromEpochMillis((Long) ms));
            }
            out.collect(g);
        }

        @Override
        public void close() {}
    }
}
