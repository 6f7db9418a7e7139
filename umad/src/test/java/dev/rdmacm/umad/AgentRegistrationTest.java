package dev.rdmacm.umad;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteOrder;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The kernel's registration rules, refused here with a message naming the input and the rule. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class AgentRegistrationTest
{
    @Test
    void shouldRegisterTheCmClassAsIbCmDoes()
    {
        final AgentRegistration cm = AgentRegistration.communicationManagement();

        assertEquals("class 0x07 (ComMgt) version 2 methods [0x03]", cm.describe());
        assertEquals(1L << 3, cm.methodMaskLow());
    }

    @Test
    void shouldPutMethodsAbove63InTheSecondWord()
    {
        final AgentRegistration registration = AgentRegistration.of(0x04, 1, 0x01, 0x40, 0x7f);

        assertEquals(List.of(0x01, 0x40, 0x7f), registration.methods());
        assertEquals(1L << 0x01, registration.methodMaskLow());
        assertEquals(1L | (1L << 63), registration.methodMaskHigh());
    }

    @Test
    void shouldEncodeTheRegistrationForQp1WithTheMaskInHostOrder()
    {
        final UnsafeBuffer bytes = new UnsafeBuffer(new byte[AgentRegistrationRequest.LENGTH]);
        new AgentRegistrationRequest().wrap(bytes, 0).encode(AgentRegistration.of(0x03, 2, 0x01, 0x12).withRmppVersion(1), 1);

        assertEquals(1, bytes.getInt(AgentRegistrationRequest.QPN_OFFSET, ByteOrder.nativeOrder()));
        assertEquals(0x03, bytes.getByte(AgentRegistrationRequest.MGMT_CLASS_OFFSET));
        assertEquals(2, bytes.getByte(AgentRegistrationRequest.MGMT_CLASS_VERSION_OFFSET));
        assertEquals((1L << 1) | (1L << 0x12), bytes.getLong(AgentRegistrationRequest.METHOD_MASK_OFFSET, ByteOrder.nativeOrder()));
        assertEquals(1, bytes.getByte(AgentRegistrationRequest.RMPP_VERSION_OFFSET));
    }

    @Test
    void shouldRefuseClassZero()
    {
        assertEquals("management class 0x00: a GSI agent registers a class from 0x01 to 0x4f (the kernel's MAX_MGMT_CLASS is 80)",
            assertThrows(IllegalArgumentException.class, () -> AgentRegistration.of(0, 1)).getMessage());
    }

    @Test
    void shouldRefuseTheSubnetManagementClassOnQp1()
    {
        assertEquals("management class 0x01 (SubnMgt) belongs to QP0 (SMI), not to a GSI agent",
            assertThrows(IllegalArgumentException.class, () -> AgentRegistration.of(0x01, 1)).getMessage());
    }

    @Test
    void shouldRefuseAVendorClassThatNeedsAnOui()
    {
        assertEquals("management class 0x30 is a vendor class of range 2, which needs an OUI; this binding registers none",
            assertThrows(IllegalArgumentException.class, () -> AgentRegistration.of(0x30, 1)).getMessage());
    }

    @Test
    void shouldRefuseAResponseMethod()
    {
        assertEquals("method 0x81: an agent registers methods 0x00 to 0x7f (a response, bit 0x80, is routed by its transaction ID)",
            assertThrows(IllegalArgumentException.class, () -> AgentRegistration.of(0x07, 2, 0x81)).getMessage());
    }

    @Test
    void shouldRefuseRmppForTheCmClass()
    {
        assertEquals("RMPP version 1 for management class 0x07: the kernel runs RMPP only for classes 0x03, 0x06, 0x10 and 0x12",
            assertThrows(IllegalArgumentException.class,
                () -> AgentRegistration.communicationManagement().withRmppVersion(1)).getMessage());
    }

    @Test
    void shouldRefuseAClassVersionTheKernelHasNoTableFor()
    {
        assertEquals("class version 131: must be from 0 to 130 (the kernel's MAX_MGMT_VERSION is 0x83)",
            assertThrows(IllegalArgumentException.class, () -> AgentRegistration.of(0x07, 131)).getMessage());
    }
}
