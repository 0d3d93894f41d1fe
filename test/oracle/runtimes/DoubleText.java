import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;

/** Reads one 16-digit hex bit pattern per line and prints Double.toString of that double. */
public final class DoubleText {
  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
    BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.US_ASCII), 1 << 16);
    String line;
    while ((line = in.readLine()) != null) {
      if (line.isEmpty()) continue;
      out.write(Double.toString(Double.longBitsToDouble(Long.parseUnsignedLong(line, 16))));
      out.write('\n');
    }
    out.flush();
  }
}
