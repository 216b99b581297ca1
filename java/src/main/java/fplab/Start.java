package fplab;

import java.util.Map;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;

/**
 * Where FlinkBounded's job starts when the lab runs it as the oracle of a
 * start-up case (docs/parity.md): --start earliest, latest, timestamp
 * (with --start-ms, epoch milliseconds) or committed (with --reset none,
 * earliest or latest; none by default, as OffsetsInitializer's
 * committedOffsets() has it), and --group, the consumer group, set only
 * when given: with --start the job has no group id unless the case gives
 * one, so a committed start without one fails as KafkaSource's builder
 * fails it. The stop stays the latest offsets at the job's start.
 *
 * <p>With --start the program prints, after its result line, where it
 * read each partition:
 * <pre>
 * FPLAB-START first=F0,F1,... count=C0,C1,...
 * </pre>
 * Fp the offset of the first record the job read from partition p (-1
 * when it read none), Cp how many it read.
 */
final class Start {
    final String mode;
    final long ms;
    final String group;
    final String reset;

    private Start(String mode, long ms, String group, String reset) {
        this.mode = mode;
        this.ms = ms;
        this.group = group;
        this.reset = reset;
    }

    /** The start of the arguments: null without --start. */
    static Start of(Map<String, String> a) {
        String mode = a.get("start");
        if (mode == null) {
            if (a.containsKey("start-ms") || a.containsKey("group") || a.containsKey("reset")) {
                throw new Common.Fail("--start-ms, --group and --reset need --start");
            }
            return null;
        }
        switch (mode) {
            case "earliest":
            case "latest":
            case "timestamp":
            case "committed":
                break;
            default:
                throw new Common.Fail("unknown --start \"" + mode + "\" (want earliest, latest, timestamp or committed)");
        }
        String reset = a.get("reset");
        if (reset != null && !mode.equals("committed")) {
            throw new Common.Fail("--reset applies to --start committed only");
        }
        if (mode.equals("committed") && reset == null) {
            reset = "none";
        }
        if (reset != null && !reset.equals("none") && !reset.equals("earliest") && !reset.equals("latest")) {
            throw new Common.Fail("unknown --reset \"" + reset + "\" (want none, earliest or latest)");
        }
        long ms = -1;
        if (mode.equals("timestamp")) {
            ms = Common.longArg(a, "start-ms", -1, 0);
            if (ms < 0) {
                throw new Common.Fail("--start timestamp needs --start-ms");
            }
        } else if (a.containsKey("start-ms")) {
            throw new Common.Fail("--start-ms applies to --start timestamp only");
        }
        String group = a.get("group");
        if (group != null && group.isEmpty()) {
            throw new Common.Fail("--group is empty");
        }
        return new Start(mode, ms, group, reset);
    }

    /** Flink's OffsetsInitializer for this start. */
    OffsetsInitializer initializer() {
        switch (mode) {
            case "earliest":
                return OffsetsInitializer.earliest();
            case "latest":
                return OffsetsInitializer.latest();
            case "timestamp":
                return OffsetsInitializer.timestamp(ms);
            default:
                return OffsetsInitializer.committedOffsets(strategy());
        }
    }

    @SuppressWarnings("deprecation")
    private OffsetResetStrategy strategy() {
        switch (reset) {
            case "earliest":
                return OffsetResetStrategy.EARLIEST;
            case "latest":
                return OffsetResetStrategy.LATEST;
            default:
                return OffsetResetStrategy.NONE;
        }
    }

    /** The FPLAB-START line (see the class comment). */
    static String line(long[] first, long[] counts) {
        StringBuilder sb = new StringBuilder("FPLAB-START first=");
        for (int p = 0; p < first.length; p++) {
            sb.append(p == 0 ? "" : ",").append(first[p]);
        }
        sb.append(" count=");
        for (int p = 0; p < counts.length; p++) {
            sb.append(p == 0 ? "" : ",").append(counts[p]);
        }
        return sb.toString();
    }
}
