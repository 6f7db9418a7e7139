package dev.rdmacm.cli;

import dev.rdmacm.addrinfo.AddrInfoResult;
import dev.rdmacm.addrinfo.AddressFamily;
import dev.rdmacm.addrinfo.QpType;
import dev.rdmacm.addrinfo.RaiFlags;
import dev.rdmacm.addrinfo.RdmaAddrInfoHints;
import dev.rdmacm.addrinfo.RdmaGetAddrInfo;
import dev.rdmacm.addrinfo.RdmaSockaddr;
import dev.rdmacm.protocol.PortSpace;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * {@code rdmacm getaddrinfo}: librdmacm's {@code rdma_getaddrinfo} for one node and service, printed
 * field by field ({@code --json}: the C struct's field names and numeric values).
 */
public final class GetAddrInfoCommand implements Callable<Integer>
{
    private final NodeServiceArguments target = new NodeServiceArguments();

    private final AddrInfoHintOptions hints = new AddrInfoHintOptions();

    private final JsonOption json = new JsonOption();

    private CommandSpec spec;

    /** This command as picocli's model, built by hand ({@link StartModels}): no annotation is read at start. */
    CommandSpec model()
    {
        spec = CommandSpec.wrapWithoutInspection(this).name("getaddrinfo")
            .addMixin("target", target.model())
            .addMixin("hints", hints.model())
            .addMixin("json", json.model());
        spec.usageMessage().description(
            "Resolves NODE and SERVICE as librdmacm's rdma_getaddrinfo does and prints every entry.",
            "NODE or SERVICE written as - is absent (a NULL pointer). Without any hint option no hints are passed "
                + "(a NULL hints pointer); NODE, SERVICE and hints all absent is EINVAL.",
            "Exit status: 0 resolved, 1 resolution failed, 2 usage error.");
        return StartModels.withStandardHelp(spec);
    }

    @Override
    public Integer call()
    {
        final RdmaGetAddrInfo resolver = RdmaGetAddrInfo.withDefaults();
        final AddrInfoResult result = resolver.getaddrinfo(target.node(), target.service(), hints.hints());
        final CommandOutput output = CommandOutput.of(spec, json.json);
        if (result instanceof AddrInfoResult.Success success)
        {
            return output.result(GetAddrInfoJson.tree(result), out -> out.print(GetAddrInfoText.entries(success)));
        }
        return output.error(GetAddrInfoJson.tree(result));
    }

    static final class FlagsConverter implements CommandLine.ITypeConverter<Integer>
    {
        @Override
        public Integer convert(final String text)
        {
            try
            {
                final long value = Long.decode(text);
                if (value >= 0 && value <= 0xffff_ffffL)
                {
                    return (int)value;
                }
            }
            catch (final NumberFormatException ignored)
            {
                // reported below with the rule
            }
            throw new CommandLine.TypeConversionException(
                "'" + text + "' is not a number from 0 to 0xffffffff (decimal or 0x hex)");
        }
    }

    static final class FamilyConverter implements CommandLine.ITypeConverter<Integer>
    {
        @Override
        public Integer convert(final String text)
        {
            return usage(text, () -> AddressFamily.parse(text));
        }
    }

    static final class QpTypeConverter implements CommandLine.ITypeConverter<Integer>
    {
        @Override
        public Integer convert(final String text)
        {
            return usage(text, () -> QpType.parse(text));
        }
    }

    static final class PortSpaceConverter implements CommandLine.ITypeConverter<Integer>
    {
        @Override
        public Integer convert(final String text)
        {
            for (final PortSpace space : PortSpace.values())
            {
                if (space.name().toLowerCase(Locale.ROOT).equals(text))
                {
                    return space.code();
                }
            }
            throw new CommandLine.TypeConversionException("'" + text + "' is not one of tcp, udp, ib, ipoib");
        }
    }

    static final class AddressConverter implements CommandLine.ITypeConverter<RdmaSockaddr>
    {
        @Override
        public RdmaSockaddr convert(final String text)
        {
            return usage(text, () -> RdmaSockaddr.parse(text, "address"));
        }
    }

    /**
     * Turns the parsers' IllegalArgumentException into picocli's usage error (exit 2, message, usage).
     * picocli names the option ({@code Invalid value for option '--family': }), so the message starts at
     * the quoted value: the parser's own name for what it parses ({@code family 'ipx'}) would say it twice.
     */
    static <T> T usage(final String text, final Supplier<T> parse)
    {
        try
        {
            return parse.get();
        }
        catch (final IllegalArgumentException ex)
        {
            final String message = String.valueOf(ex.getMessage());
            final int value = message.indexOf("'" + text + "'");
            final boolean named = value > 0 && message.substring(0, value).matches("[A-Za-z][A-Za-z -]* ");
            throw new CommandLine.TypeConversionException(named ? message.substring(value) : message);
        }
    }
}
