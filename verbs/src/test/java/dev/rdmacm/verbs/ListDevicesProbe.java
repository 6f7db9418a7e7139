package dev.rdmacm.verbs;

/**
 * Run in a child JVM by {@link VerbsWithoutDevicesTest} to see what listing devices does when the
 * library cannot be loaded or native access is denied: prints the count and the reason, one line each.
 */
public final class ListDevicesProbe
{
    private ListDevicesProbe()
    {
    }

    public static void main(final String[] args)
    {
        final DeviceListing listing = Verbs.listDevices();
        System.out.println("devices=" + listing.devices().size());
        System.out.println("whyNone=" + listing.whyNone().orElse(""));
        try
        {
            Verbs.open("mlx5_0").close();
            System.out.println("opened");
        }
        catch (final VerbsException ex)
        {
            System.out.println("open=" + ex.getMessage());
        }
    }
}
