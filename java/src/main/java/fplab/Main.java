package fplab;

import java.util.Arrays;

/**
 * The jar's entry point: {@code java -jar fplab-java.jar steady|flink ...}.
 * One jar, so that the JVM flags Flink needs on Java 17 (Add-Opens in the
 * manifest) apply to both programs alike.
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        if (args.length == 0) {
            Common.die("fplab-java", "usage: fplab-java.jar steady|flink --bootstrap HOST:PORT,... --topic T --partitions P --records N ...");
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        switch (args[0]) {
            case "steady":
                SteadyConsumer.main(rest);
                break;
            case "flink":
                FlinkBounded.main(rest);
                break;
            default:
                Common.die("fplab-java", "unknown program \"" + args[0] + "\" (want steady or flink)");
        }
    }
}
