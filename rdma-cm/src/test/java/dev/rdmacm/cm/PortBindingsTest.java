package dev.rdmacm.cm;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.PortSpace;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.random.RandomGenerator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The kernel CM's port rules (cma_alloc_any_port, cma_use_port, cma_check_port) on their own; the
 * kernel itself answers the same cases in SoftRoceGuestsTest.
 */
class PortBindingsTest
{
    /** Always starts the search at the bottom of the range. */
    private static final RandomGenerator LOWEST = new RandomGenerator()
    {
        @Override
        public long nextLong()
        {
            return 0;
        }

        @Override
        public int nextInt(final int bound)
        {
            return 0;
        }
    };

    private static final String CALL = "rdma_bind_addr";
    private final PortBindings bindings = new PortBindings(LOWEST, false);

    private static PortBindings.Owner owner(final String source, final boolean reuse, final boolean afOnly)
        throws Exception
    {
        return new PortBindings.Owner(new Object(), InetAddress.getByName(source), null, 0, reuse, afOnly);
    }

    @Test
    void shouldRefuseASecondIdOnTheSameAddressAndPortWithEaddrinuse() throws Exception
    {
        bindings.bind(CALL, PortSpace.TCP, 7471, owner("10.0.0.1", false, false));

        final RdmaCmException ex = assertThrows(RdmaCmException.class,
            () -> bindings.bind(CALL, PortSpace.TCP, 7471, owner("10.0.0.1", false, false)));

        assertEquals(Errno.EADDRINUSE, ex.errno());
    }

    @Test
    void shouldRefuseAWildcardBesideAnotherIdWithEaddrnotavail() throws Exception
    {
        bindings.bind(CALL, PortSpace.TCP, 7471, owner("10.0.0.1", false, false));

        final RdmaCmException ex = assertThrows(RdmaCmException.class,
            () -> bindings.bind(CALL, PortSpace.TCP, 7471, owner("0.0.0.0", false, false)));

        assertEquals(Errno.EADDRNOTAVAIL, ex.errno());
    }

    @Test
    void shouldLetTwoReuseaddrIdsShareAPort() throws Exception
    {
        bindings.bind(CALL, PortSpace.TCP, 7471, owner("10.0.0.1", true, false));
        bindings.bind(CALL, PortSpace.TCP, 7471, owner("10.0.0.1", true, false));

        assertEquals(2, bindings.ownerCount(PortSpace.TCP, 7471));
    }

    @Test
    void shouldFreeASharedPortOnlyWhenItsLastIdReleasesIt() throws Exception
    {
        final PortBindings.Owner first = owner("10.0.0.1", true, false);
        final PortBindings.Owner second = owner("10.0.0.1", true, false);
        bindings.bind(CALL, PortSpace.TCP, 7471, first);
        bindings.bind(CALL, PortSpace.TCP, 7471, second);
        bindings.release(PortSpace.TCP, 7471, first.id());
        assertEquals(1, bindings.ownerCount(PortSpace.TCP, 7471));

        final RdmaCmException ex = assertThrows(RdmaCmException.class,
            () -> bindings.bind(CALL, PortSpace.TCP, 7471, owner("10.0.0.1", false, false)));
        assertEquals(Errno.EADDRINUSE, ex.errno(), "the second id still holds the port");

        bindings.release(PortSpace.TCP, 7471, second.id());
        assertEquals(0, bindings.ownerCount(PortSpace.TCP, 7471));
    }

    @Test
    void shouldLetAfonlyIdsOfTwoFamiliesShareAPortEvenAsWildcards() throws Exception
    {
        bindings.bind(CALL, PortSpace.TCP, 7471, owner("0.0.0.0", false, true));
        bindings.bind(CALL, PortSpace.TCP, 7471, owner("::", false, true));

        assertEquals(2, bindings.ownerCount(PortSpace.TCP, 7471));
    }

    @Test
    void shouldKeepPortSpacesApart() throws Exception
    {
        bindings.bind(CALL, PortSpace.TCP, 7471, owner("10.0.0.1", false, false));
        bindings.bind(CALL, PortSpace.UDP, 7471, owner("10.0.0.1", false, false));

        assertEquals(1, bindings.ownerCount(PortSpace.UDP, 7471));
    }

    @Test
    void shouldRefuseAPrivilegedPortWithoutTheCapabilityWithEacces() throws Exception
    {
        final RdmaCmException ex = assertThrows(RdmaCmException.class,
            () -> bindings.bind(CALL, PortSpace.TCP, 1023, owner("10.0.0.1", false, false)));

        assertEquals(Errno.EACCES, ex.errno());
    }

    @Test
    void shouldSkipTheLastPortHandedOutAndTakenPortsWhenChoosingOne() throws Exception
    {
        assertEquals(40000, bindings.bindAny(CALL, PortSpace.TCP, owner("0.0.0.0", false, false), 40000, 40003));
        assertEquals(40001, bindings.bindAny(CALL, PortSpace.TCP, owner("0.0.0.0", false, false), 40000, 40003),
            "40000 was handed out last and is taken by a wildcard");
    }

    @Test
    void shouldShareAnEphemeralPortBetweenIdsWithDifferentDestinations() throws Exception
    {
        final PortBindings.Owner first = new PortBindings.Owner(new Object(), InetAddress.getByName("0.0.0.0"),
            InetAddress.getByName("10.0.0.2"), 0, false, false);
        final PortBindings.Owner second = new PortBindings.Owner(new Object(), InetAddress.getByName("0.0.0.0"),
            InetAddress.getByName("10.0.0.3"), 0, false, false);
        bindings.bindAny(CALL, PortSpace.TCP, first, 40000, 40000 + 1);

        assertEquals(40001, bindings.bindAny(CALL, PortSpace.TCP, second, 40000, 40001), "40000 was the last handed out");
        assertEquals(40000, bindings.bindAny(CALL, PortSpace.TCP, new PortBindings.Owner(new Object(),
            InetAddress.getByName("0.0.0.0"), InetAddress.getByName("10.0.0.4"), 0, false, false), 40000, 40001),
            "a different destination makes 40000 unique again");
    }

    @Test
    void shouldFailWithEaddrnotavailWhenTheRangeIsFull() throws Exception
    {
        bindings.bindAny(CALL, PortSpace.TCP, owner("0.0.0.0", false, false), 40000, 40000);

        final RdmaCmException ex = assertThrows(RdmaCmException.class,
            () -> bindings.bindAny(CALL, PortSpace.TCP, owner("0.0.0.0", false, false), 40000, 40000));

        assertEquals(Errno.EADDRNOTAVAIL, ex.errno());
    }

    @Test
    void shouldFreeThePortWhenItsLastOwnerGoes() throws Exception
    {
        final PortBindings.Owner owner = owner("10.0.0.1", false, false);
        bindings.bind(CALL, PortSpace.TCP, 7471, owner);

        bindings.release(PortSpace.TCP, 7471, owner.id());

        assertEquals(0, bindings.ownerCount(PortSpace.TCP, 7471));
    }
}
