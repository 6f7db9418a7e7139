package dev.rdmacm.umad;

import dev.rdmacm.protocol.cm.CmMad;
import dev.rdmacm.protocol.mad.MadMethod;
import dev.rdmacm.protocol.mad.ManagementClass;

import java.util.ArrayList;
import java.util.List;

/**
 * What a umad agent asks the kernel's MAD layer for on QP1 (GSI): unsolicited MADs of one management
 * class and class version whose method is in the mask, and the responses (by transaction ID) to the
 * requests it sends. An agent with no method receives responses only.
 * <p>
 * The rules are the kernel's own ({@code ib_register_mad_agent} in drivers/infiniband/core/mad.c),
 * checked here so that the kernel's EINVAL is left to mean one thing: a method another agent holds.
 * <ul>
 *   <li>class 1 to 0x4f ({@code MAX_MGMT_CLASS} is 80), not the SMP classes 0x01 and 0x81, which
 *       belong to QP0;</li>
 *   <li>class version below 0x83 ({@code MAX_MGMT_VERSION});</li>
 *   <li>not a vendor class of range 2 (0x30-0x4f): those need an OUI, which this binding does not
 *       register;</li>
 *   <li>methods 0 to 127 ({@code IB_MGMT_MAX_METHODS}); the response bit 0x80 is no method;</li>
 *   <li>RMPP version 0 or 1, and 1 only for the classes the kernel reassembles RMPP for (SA 0x03,
 *       DevMgt 0x06, DevAdm 0x10, BIS 0x12).</li>
 * </ul>
 *
 * @param methodMaskLow  methods 0-63, bit {@code m} for method {@code m}.
 * @param methodMaskHigh methods 64-127, bit {@code m - 64}.
 */
public record AgentRegistration(int managementClass, int classVersion, long methodMaskLow, long methodMaskHigh,
    int rmppVersion)
{
    private static final int MAX_CLASS = 0x4f;
    private static final int MAX_CLASS_VERSION = 0x82;
    private static final int MAX_METHOD = 127;

    public AgentRegistration
    {
        if (managementClass < 1 || managementClass > MAX_CLASS)
        {
            throw new IllegalArgumentException("management class " + hex(managementClass) +
                ": a GSI agent registers a class from 0x01 to 0x4f (the kernel's MAX_MGMT_CLASS is 80)");
        }
        if (managementClass == ManagementClass.SUBN_LID_ROUTED)
        {
            throw new IllegalArgumentException("management class 0x01 (SubnMgt) belongs to QP0 (SMI), not to a GSI agent");
        }
        if (ManagementClass.isVendor(managementClass) && managementClass >= ManagementClass.VENDOR_RANGE2_START)
        {
            throw new IllegalArgumentException("management class " + hex(managementClass) +
                " is a vendor class of range 2, which needs an OUI; this binding registers none");
        }
        if (classVersion < 0 || classVersion > MAX_CLASS_VERSION)
        {
            throw new IllegalArgumentException("class version " + classVersion +
                ": must be from 0 to 130 (the kernel's MAX_MGMT_VERSION is 0x83)");
        }
        if (rmppVersion != 0 && rmppVersion != 1)
        {
            throw new IllegalArgumentException("RMPP version " + rmppVersion + ": must be 0 (none) or 1");
        }
        if (rmppVersion == 1 && !isRmppClass(managementClass))
        {
            throw new IllegalArgumentException("RMPP version 1 for management class " + hex(managementClass) + ": the kernel runs RMPP only for classes 0x03, 0x06, 0x10 and 0x12");
        }
    }

    /**
     * The CM class as a CM registers it (the kernel's ib_cm does the same): class 0x07, version 2,
     * method Send, every CM message being a Send; no RMPP.
     */
    public static AgentRegistration communicationManagement()
    {
        return of(ManagementClass.COMM_MGT, CmMad.CLASS_VERSION, MadMethod.SEND);
    }

    /** Class {@code managementClass} version {@code classVersion} with {@code methods}, no RMPP. */
    public static AgentRegistration of(final int managementClass, final int classVersion, final int... methods)
    {
        long low = 0;
        long high = 0;
        for (final int method : methods)
        {
            if (method < 0 || method > MAX_METHOD)
            {
                throw new IllegalArgumentException("method " + hex(method) +
                    ": an agent registers methods 0x00 to 0x7f (a response, bit 0x80, is routed by its transaction ID)");
            }
            if (method < Long.SIZE)
            {
                low |= 1L << method;
            }
            else
            {
                high |= 1L << (method - Long.SIZE);
            }
        }
        return new AgentRegistration(managementClass, classVersion, low, high, 0);
    }

    /** The same registration with the kernel's RMPP reassembly and segmentation ({@code version} 1) or without (0). */
    public AgentRegistration withRmppVersion(final int version)
    {
        return new AgentRegistration(managementClass, classVersion, methodMaskLow, methodMaskHigh, version);
    }

    /** The registered methods, ascending. */
    public List<Integer> methods()
    {
        final List<Integer> methods = new ArrayList<>();
        for (int method = 0; method <= MAX_METHOD; method++)
        {
            final long mask = method < Long.SIZE ? methodMaskLow : methodMaskHigh;
            if ((mask & (1L << (method & (Long.SIZE - 1)))) != 0)
            {
                methods.add(method);
            }
        }
        return methods;
    }

    /** {@code class 0x07 version 2 methods [0x03]}: how messages name the registration. */
    public String describe()
    {
        final StringBuilder text = new StringBuilder("class 0x").append(String.format("%02x", managementClass))
            .append(" (").append(ManagementClass.name(managementClass)).append(") version ").append(classVersion)
            .append(" methods [");
        final List<Integer> methods = methods();
        for (int i = 0; i < methods.size(); i++)
        {
            text.append(i == 0 ? "" : ", ").append(String.format("0x%02x", methods.get(i)));
        }
        text.append(']');
        if (rmppVersion != 0)
        {
            text.append(" RMPP version ").append(rmppVersion);
        }
        return text.toString();
    }

    private static String hex(final int value)
    {
        return String.format("0x%02x", value);
    }

    private static boolean isRmppClass(final int managementClass)
    {
        return managementClass == ManagementClass.SUBN_ADM || managementClass == ManagementClass.DEV_MGT ||
            managementClass == ManagementClass.DEV_ADM || managementClass == ManagementClass.BIS;
    }
}
