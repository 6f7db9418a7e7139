package dev.rdmacm.cli;

import picocli.CommandLine;

import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Where an option of a command model built by hand ({@link StartModels}) keeps its value: the field of
 * its mixin or command, read and written through two lambdas, as picocli's own binding does for an
 * annotated field by reflection. A class, not a lambda: picocli's {@code ISetter.set} is generic.
 */
final class OptionValue implements CommandLine.Model.IGetter, CommandLine.Model.ISetter
{
    private final Supplier<?> getter;
    private final Consumer<Object> setter;

    @SuppressWarnings("unchecked")
    private <T> OptionValue(final Supplier<T> getter, final Consumer<T> setter)
    {
        this.getter = getter;
        this.setter = (Consumer<Object>)setter;
    }

    /** The value {@code getter} reads and {@code setter} writes. */
    static <T> OptionValue of(final Supplier<T> getter, final Consumer<T> setter)
    {
        return new OptionValue(getter, setter);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T get()
    {
        return (T)getter.get();
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T set(final T value)
    {
        final T previous = (T)getter.get();
        setter.accept(value);
        return previous;
    }
}
