package io.jring.tool.echo;

import io.jring.tool.JringCommand;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Mirrors {@link ServerProcess}: the child JVM's command line, its start, its failure, its end. */
class ServerProcessTest {

    @Test
    void commandIsJavaFlagsClassPathMainClassAndServerArgs() {
        List<String> c = ServerProcess.command("/jdk/bin/java", "a.jar:b.jar", List.of("-Xmx1g"),
                List.of("echo-server", "--port=0"));
        assertEquals(List.of("/jdk/bin/java", "--enable-native-access=ALL-UNNAMED", "-XX:+UseParallelGC", "-Xms512m",
                "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED", "-Xmx1g", "-cp", "a.jar:b.jar", JringCommand.class.getName(),
                "echo-server", "--port=0"), c);
    }

    @Test
    void serverJavaOptsSplitAtWhitespace() {
        assertEquals(List.of(), ServerProcess.splitOptions(""));
        assertEquals(List.of(), ServerProcess.splitOptions("  "));
        assertEquals(List.of("-Xmx1g", "-XX:+UseSerialGC"), ServerProcess.splitOptions(" -Xmx1g \t-XX:+UseSerialGC "));
    }

    @Test
    void theChildServesOnThePortItPrintedAndIsGoneAfterClose() throws Exception {
        ServerProcess child = ServerProcess.start(List.of("echo-server", "--port=0", "--impl=netty-epoll"), List.of());
        ProcessHandle handle;
        try {
            handle = ProcessHandle.of(child.pid()).orElseThrow();
            assertTrue(child.isAlive());
            try (Socket s = EchoClients.connect(child.address())) {
                EchoClients.assertEchoes(s, EchoClients.pattern(100, 3));
            }
        } finally {
            child.close();
        }
        handle.onExit().get(10, TimeUnit.SECONDS);
        assertFalse(handle.isAlive());
        assertFalse(child.isAlive());
    }

    @Test
    void aChildThatExitsBeforeListeningIsReportedWithItsOutput() {
        IOException e = assertThrows(IOException.class,
                () -> ServerProcess.start(List.of("echo-server", "--threads=0"), List.of()));
        assertTrue(e.getMessage().contains("exited with status 2 before listening"), e.getMessage());
        assertTrue(e.getMessage().contains("--threads must be >= 1"), e.getMessage());
    }
}
