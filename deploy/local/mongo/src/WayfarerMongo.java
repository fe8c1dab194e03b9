import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.h2.H2Backend;

/** Starts mongo-java-server with its H2 (MVStore) backend: `WayfarerMongo <file> <host> <port>`. */
public final class WayfarerMongo {
  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      System.err.println("usage: WayfarerMongo <data-file> <host> <port>");
      System.exit(2);
    }
    MongoServer server = new MongoServer(new H2Backend(args[0]));
    server.bind(args[1], Integer.parseInt(args[2]));
    Runtime.getRuntime().addShutdownHook(new Thread(server::shutdown));
    System.out.println("mongo-java-server listening on " + args[1] + ":" + args[2]);
    Thread.currentThread().join();
  }
}
