package dev.rdmacm.sa.testing;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Starts a {@link SimulatedFabric} for a test class ({@link #perClass()}, in a static
 * {@code @RegisterExtension} field) or for each test ({@link #perTest()}, when a test stops or kills
 * OpenSM), and closes it afterwards, whatever the outcome.
 */
public final class SimulatedFabricExtension
    implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback
{
    private final boolean perTest;
    private SimulatedFabric fabric;

    private SimulatedFabricExtension(final boolean perTest)
    {
        this.perTest = perTest;
    }

    public static SimulatedFabricExtension perClass()
    {
        return new SimulatedFabricExtension(false);
    }

    public static SimulatedFabricExtension perTest()
    {
        return new SimulatedFabricExtension(true);
    }

    /** The running fabric. */
    public SimulatedFabric fabric()
    {
        if (fabric == null)
        {
            throw new IllegalStateException("the simulated fabric is not running outside a test");
        }
        return fabric;
    }

    @Override
    public void beforeAll(final ExtensionContext context)
    {
        if (!perTest)
        {
            fabric = SimulatedFabric.start();
        }
    }

    @Override
    public void afterAll(final ExtensionContext context)
    {
        if (!perTest)
        {
            stop();
        }
    }

    @Override
    public void beforeEach(final ExtensionContext context)
    {
        if (perTest)
        {
            fabric = SimulatedFabric.start();
        }
    }

    @Override
    public void afterEach(final ExtensionContext context)
    {
        if (perTest)
        {
            stop();
        }
    }

    private void stop()
    {
        if (fabric != null)
        {
            fabric.close();
            fabric = null;
        }
    }
}
