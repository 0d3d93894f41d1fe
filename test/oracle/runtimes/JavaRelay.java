import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Java SDK's relay as the facts describe it (part 1, §3 and §8): its parser reads integers as
 * Long or BigInteger and other numbers as Double into LinkedHashMaps (a repeated key keeps its
 * first place and its last value); decode() reads the typed fields (job, else the urn alias when
 * job is blank; numbers through intValue()/longValue()); the hand-written writer prints the fixed
 * field order, Double.toString for doubles, toString() for other numbers, the escapes
 * \" \\ \b \f \n \r \t and lowercase \\u00xx below 0x20, everything else as is, and the body is
 * String.getBytes(UTF_8). One body per line of stdin, base64; one answer per line of stdout:
 * "ok <base64>", "decode <why>" or "encode <why>".
 */
public final class JavaRelay {
  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
    PrintStream out = new PrintStream(System.out, false, StandardCharsets.US_ASCII);
    String line;
    while ((line = in.readLine()) != null) {
      if (line.isEmpty()) continue;
      String text = new String(Base64.getDecoder().decode(line), StandardCharsets.UTF_8);
      Object root;
      try {
        Parser parser = new Parser(text);
        root = parser.value();
        parser.end();
      } catch (RuntimeException error) {
        out.println("decode " + error.getMessage());
        continue;
      }
      if (!(root instanceof Map)) {
        out.println("decode not an object");
        continue;
      }
      try {
        StringBuilder body = new StringBuilder();
        write(body, relay((Map<?, ?>) root));
        out.println("ok " + Base64.getEncoder().encodeToString(body.toString().getBytes(StandardCharsets.UTF_8)));
      } catch (RuntimeException error) {
        out.println("encode " + error.getMessage());
      }
    }
    out.flush();
  }

  /** decode() then the encoder's field order. */
  static Map<String, Object> relay(Map<?, ?> root) {
    Object job = root.get("job");
    if (!(job instanceof String) || ((String) job).isBlank()) {
      if (root.get("urn") instanceof String) job = root.get("urn");
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("job", job instanceof String ? job : null);
    out.put("trace_id", text(root.get("trace_id")));
    out.put("data", root.get("data") instanceof Map ? root.get("data") : null);
    Map<String, Object> meta = new LinkedHashMap<>();
    if (root.get("meta") instanceof Map) {
      Map<?, ?> m = (Map<?, ?>) root.get("meta");
      meta.put("id", text(m.get("id")));
      meta.put("queue", text(m.get("queue")));
      meta.put("lang", text(m.get("lang")));
      meta.put("schema_version", (long) intValue(m.get("schema_version")));
      meta.put("created_at", longValue(m.get("created_at")));
    }
    out.put("meta", meta);
    out.put("attempts", (long) intValue(root.get("attempts")));
    if (root.get("dead_letter") instanceof Map) {
      Map<?, ?> d = (Map<?, ?>) root.get("dead_letter");
      Map<String, Object> dl = new LinkedHashMap<>();
      dl.put("reason", text(d.get("reason")));
      dl.put("error", text(d.get("error")));
      dl.put("exception", text(d.get("exception")));
      dl.put("failed_at", longValue(d.get("failed_at")));
      dl.put("original_queue", text(d.get("original_queue")));
      dl.put("attempts", (long) intValue(d.get("attempts")));
      dl.put("lang", text(d.get("lang")));
      out.put("dead_letter", dl);
    }
    return out;
  }

  static Object text(Object value) {
    return value instanceof String ? value : null;
  }

  static int intValue(Object value) {
    return value instanceof Number ? ((Number) value).intValue() : 0;
  }

  static long longValue(Object value) {
    return value instanceof Number ? ((Number) value).longValue() : 0L;
  }

  static void write(StringBuilder out, Object value) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof String) {
      writeString(out, (String) value);
    } else if (value instanceof Double) {
      double d = (Double) value;
      if (Double.isNaN(d) || Double.isInfinite(d)) throw new IllegalArgumentException("Cannot encode non-finite number");
      out.append(Double.toString(d));
    } else if (value instanceof Number || value instanceof Boolean) {
      out.append(value.toString());
    } else if (value instanceof Map) {
      out.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
        if (!first) out.append(',');
        first = false;
        writeString(out, (String) entry.getKey());
        out.append(':');
        write(out, entry.getValue());
      }
      out.append('}');
    } else {
      out.append('[');
      boolean first = true;
      for (Object item : (List<?>) value) {
        if (!first) out.append(',');
        first = false;
        write(out, item);
      }
      out.append(']');
    }
  }

  static void writeString(StringBuilder out, String value) {
    out.append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '"': out.append("\\\""); break;
        case '\\': out.append("\\\\"); break;
        case '\b': out.append("\\b"); break;
        case '\f': out.append("\\f"); break;
        case '\n': out.append("\\n"); break;
        case '\r': out.append("\\r"); break;
        case '\t': out.append("\\t"); break;
        default:
          if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
          else out.append(c);
      }
    }
    out.append('"');
  }

  /** A strict JSON parser into the Java SDK's value shapes. */
  static final class Parser {
    private final String s;
    private int i;

    Parser(String s) {
      this.s = s;
    }

    void end() {
      space();
      if (i != s.length()) throw new IllegalArgumentException("trailing text at " + i);
    }

    Object value() {
      space();
      if (i >= s.length()) throw new IllegalArgumentException("unexpected end");
      char c = s.charAt(i);
      if (c == '{') return object();
      if (c == '[') return array();
      if (c == '"') return string();
      if (s.startsWith("true", i)) { i += 4; return Boolean.TRUE; }
      if (s.startsWith("false", i)) { i += 5; return Boolean.FALSE; }
      if (s.startsWith("null", i)) { i += 4; return null; }
      return number();
    }

    private Map<String, Object> object() {
      Map<String, Object> map = new LinkedHashMap<>();
      i++;
      space();
      if (peek() == '}') { i++; return map; }
      while (true) {
        space();
        if (peek() != '"') throw new IllegalArgumentException("key expected at " + i);
        String key = string();
        space();
        if (peek() != ':') throw new IllegalArgumentException("colon expected at " + i);
        i++;
        map.put(key, value());
        space();
        char c = peek();
        i++;
        if (c == '}') return map;
        if (c != ',') throw new IllegalArgumentException("comma expected at " + (i - 1));
      }
    }

    private List<Object> array() {
      List<Object> list = new ArrayList<>();
      i++;
      space();
      if (peek() == ']') { i++; return list; }
      while (true) {
        list.add(value());
        space();
        char c = peek();
        i++;
        if (c == ']') return list;
        if (c != ',') throw new IllegalArgumentException("comma expected at " + (i - 1));
      }
    }

    private String string() {
      StringBuilder out = new StringBuilder();
      i++;
      while (true) {
        char c = s.charAt(i++);
        if (c == '"') return out.toString();
        if (c < 0x20) throw new IllegalArgumentException("control character in string");
        if (c != '\\') { out.append(c); continue; }
        char e = s.charAt(i++);
        switch (e) {
          case '"': out.append('"'); break;
          case '\\': out.append('\\'); break;
          case '/': out.append('/'); break;
          case 'b': out.append('\b'); break;
          case 'f': out.append('\f'); break;
          case 'n': out.append('\n'); break;
          case 'r': out.append('\r'); break;
          case 't': out.append('\t'); break;
          case 'u': out.append((char) Integer.parseInt(s.substring(i, i + 4), 16)); i += 4; break;
          default: throw new IllegalArgumentException("bad escape");
        }
      }
    }

    private Object number() {
      int start = i;
      if (peek() == '-') i++;
      while (i < s.length() && "0123456789".indexOf(s.charAt(i)) >= 0) i++;
      boolean integer = true;
      if (i < s.length() && s.charAt(i) == '.') { integer = false; i++; while (i < s.length() && Character.isDigit(s.charAt(i))) i++; }
      if (i < s.length() && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
        integer = false;
        i++;
        if (s.charAt(i) == '+' || s.charAt(i) == '-') i++;
        while (i < s.length() && Character.isDigit(s.charAt(i))) i++;
      }
      String text = s.substring(start, i);
      if (text.isEmpty() || text.equals("-")) throw new IllegalArgumentException("value expected at " + start);
      if (!integer) return Double.parseDouble(text);
      BigInteger big = new BigInteger(text);
      return big.bitLength() < 64 ? (Object) big.longValue() : big;
    }

    private char peek() {
      if (i >= s.length()) throw new IllegalArgumentException("unexpected end");
      return s.charAt(i);
    }

    private void space() {
      while (i < s.length() && " \t\n\r".indexOf(s.charAt(i)) >= 0) i++;
    }
  }
}
